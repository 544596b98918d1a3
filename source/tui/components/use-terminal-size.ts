import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** Columns and rows, updated on every resize. */
export function useTerminalSize(fixed?: { cols: number; rows: number }): { cols: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => fixed ?? { cols: stdout.columns || 80, rows: stdout.rows || 24 };
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed) return;
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fixed?.cols, fixed?.rows]);
  return fixed ?? size;
}
