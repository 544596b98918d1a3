/**
 * `claw models list | head -1`: once the reader closes the pipe, the next
 * write fails with EPIPE, which Node raises as an unhandled 'error' event and
 * a stack trace. A closed pipe means nobody wants more output: exit quietly,
 * as other Unix tools do.
 */
export function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
}
