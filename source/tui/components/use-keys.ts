import { useInput, useStdin, type Key } from 'ink';
import { useEffect, useRef } from 'react';

/**
 * useInput plus the raw sequence of each key. Ink's emitter hands every parsed
 * sequence to listeners in order, and this one is registered before useInput's,
 * so the raw bytes are known when the handler runs.
 */
export function useKeys(handler: (input: string, key: Key, raw: string | undefined) => void): void {
  const { internal_eventEmitter: emitter } = useStdin();
  const raw = useRef<string | undefined>(undefined);
  useEffect(() => {
    const onInput = (data: string): void => {
      raw.current = data;
    };
    emitter.on('input', onInput);
    return () => {
      emitter.off('input', onInput);
    };
  }, [emitter]);
  useInput((input, key) => handler(input, key, raw.current));
}
