/** A second Ctrl+C within this window exits; the footer says so only while it is open. */
export const CTRL_C_WINDOW_MS = 2000;
