// An example claw plugin (source/plugins/README.md). It imports nothing from
// claw: everything arrives through `ctx` in setup().

const toFahrenheit = (celsius) => Math.round((celsius * 9) / 5 + 32);

/** The echo model's reply: the last user message, back, a few characters at a time. */
function lastUserText(messages) {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    return message.content
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join(' ');
  }
  return '';
}

export default {
  id: 'acme-weather',
  setup(ctx) {
    ctx.tools.register({
      name: 'weather_now',
      description: 'The current weather in a city, one line (from wttr.in).',
      inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name, e.g. Lisbon' } }, required: ['city'] },
      effect: 'net',
      async run({ city }, { signal, progress }) {
        progress(`asking wttr.in about ${city}`);
        const units = ctx.config.units === 'imperial' ? 'u' : 'm';
        const key = ctx.secrets.get('ACME_WEATHER_KEY');
        const response = await fetch(`${ctx.config.baseUrl ?? 'https://wttr.in'}/${encodeURIComponent(city)}?format=3&${units}`, {
          signal,
          headers: key ? { 'x-acme-key': key } : {},
        });
        if (!response.ok) return { content: `wttr.in answered ${response.status} for ${city}`, isError: true };
        return (await response.text()).trim();
      },
    });

    ctx.tools.register({
      name: 'convert_temperature',
      description: 'Converts a temperature in Celsius to the units set in the plugin config (metric or imperial).',
      inputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
      effect: 'read',
      run: ({ celsius }) => (ctx.config.units === 'imperial' ? `${toFahrenheit(celsius)} °F` : `${celsius} °C`),
    });

    ctx.commands.register({
      name: 'weather',
      description: 'How many turns the plugin has seen, and its units',
      async run(args, reply) {
        const turns = (await ctx.storage.get('turns')) ?? 0;
        reply(`acme-weather: ${turns} turn(s) seen; units ${ctx.config.units ?? 'metric'}${args ? `; you said "${args}"` : ''}`);
      },
    });

    ctx.hooks.on('turn:end', async (event) => {
      const turns = (await ctx.storage.get('turns')) ?? 0;
      await ctx.storage.set('turns', turns + 1);
      ctx.log.info(`turn ${event.runId} ended (${event.status})`);
    });

    ctx.providers.register({
      id: 'acme',
      models: () => [{ id: 'echo-1', contextWindow: 16000, maxOutput: 1000 }],
      async *stream(request, { signal }) {
        const text = `acme echo: ${lastUserText(request.messages)}`;
        for (let i = 0; i < text.length; i += 8) {
          if (signal.aborted) throw new Error('aborted');
          yield { type: 'text', text: text.slice(i, i + 8) };
        }
        yield { type: 'usage', input: Math.ceil(JSON.stringify(request.messages).length / 4), output: Math.ceil(text.length / 4) };
      },
      classifyError: (error) => (/rate/i.test(String(error?.message)) ? 'rate_limit' : 'server'),
    });
  },
};
