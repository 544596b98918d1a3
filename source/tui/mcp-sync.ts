import type { GatewayClient } from '../client/index.js';
import type { TuiController } from './controller.js';
import { reduceMcpResources } from './store/elicitation.js';

/**
 * Keeps the TUI's MCP view current without polling: on connect and on every
 * `mcp.changed`, slash commands (server prompts) and the resources `@`
 * completes are fetched again (pending server questions come with the
 * hello snapshot and the elicitation events).
 */
export function watchMcp(controller: TuiController, client: GatewayClient): () => void {
  const { store } = controller;
  const loadResources = async (): Promise<void> => {
    if (!controller.serves('mcp.resources.list')) return;
    try {
      const { resources } = await controller.call('mcp.resources.list');
      store.update((s) =>
        reduceMcpResources(
          s,
          resources.map(({ server, uri, name }) => ({ server, uri, name })),
        ),
      );
    } catch {
      // Completion of @mentions is a convenience: without the list the mention still works when typed in full.
    }
  };
  const offs = [
    client.onHello(() => void loadResources()),
    client.on('mcp.changed', (payload) => {
      if (payload.part === 'prompts' || payload.part === 'state') void controller.loadCommands();
      if (payload.part === 'resources' || payload.part === 'state') void loadResources();
    }),
  ];
  if (client.hello) void loadResources();
  return () => {
    for (const off of offs) off();
  };
}
