import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  Root,
} from '@modelcontextprotocol/sdk/types.js';
import { loadedSdk } from './sdk.js';

/** What claw answers when a server asks something of the client. */
export interface ClientRequestHandlers {
  /** The folders a server may work in: the agent's workspace and `tools.fsRoots`. */
  roots(): Root[];
  /** A form question for the operator; resolves with their answer, or a decline when nobody answers in time. */
  elicit?(server: string, params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult>;
  /** A completion from the agent's model, for servers configured with `sampling: true`. */
  sample?(server: string, params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult>;
}

/** The capabilities claw announces to one server. */
export function clientCapabilities(handlers: ClientRequestHandlers, samplingAllowed: boolean): ClientCapabilities {
  const capabilities: ClientCapabilities = { roots: { listChanged: true } };
  if (handlers.elicit) capabilities.elicitation = { form: {} };
  if (handlers.sample && samplingAllowed) capabilities.sampling = {};
  return capabilities;
}

/** Answers roots/list, elicitation/create and sampling/createMessage from the server, as announced. */
export function installClientRequestHandlers(client: Client, server: string, handlers: ClientRequestHandlers, samplingAllowed: boolean): void {
  const { ListRootsRequestSchema, ElicitRequestSchema, CreateMessageRequestSchema, McpError, ErrorCode } = loadedSdk().types;
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: handlers.roots() }));
  const { elicit, sample } = handlers;
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const params = request.params;
      if (params.mode === 'url') throw new McpError(ErrorCode.InvalidParams, 'claw answers form elicitations only; URL elicitation is not supported.');
      return elicit(server, params, extra.signal);
    });
  }
  if (sample && samplingAllowed) {
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => sample(server, request.params, extra.signal));
  }
}
