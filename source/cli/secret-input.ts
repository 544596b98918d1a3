import { createInterface } from 'node:readline';

/** The value, from a pipe or typed without echo. */
export async function readSecretValue(name: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  const prompt = `Value for ${name} (not shown): `;
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const muted = rl as unknown as { _writeToOutput(text: string): void };
  const write = muted._writeToOutput.bind(rl);
  muted._writeToOutput = (text: string) => write(text.startsWith(prompt) ? prompt : '');
  try {
    return await new Promise<string>((resolve) => rl.question(prompt, resolve));
  } finally {
    rl.close();
    process.stdout.write('\n');
  }
}
