// The reset waits for this handler, so the note is on disk before the old transcript is replaced.
export default async function sessionMemory(event, ctx) {
  const path = await ctx.saveConversationToMemory(event.payload.sessionKey);
  if (path) ctx.log(`saved ${event.payload.sessionKey} to ${path}`);
}
