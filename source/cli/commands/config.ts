import {
  configSchema,
  getAtPath,
  loadConfig,
  parseCliValue,
  readRawConfig,
  redactSkillSecrets,
  setAtPath,
  statePaths,
  unsetAtPath,
  writeRawConfig,
} from '../../config/index.js';
import type { CommandRun } from '../command.js';
import { refuseUnknownModel } from '../model-check.js';
import { describeRefusal } from './config-hints.js';

const usage = 'Usage: claw config get [key] | set <key> <value> | unset <key> | path';

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

export const run: CommandRun = async ({ args }) => {
  const [action, key, ...valueWords] = args;
  const { config: file } = statePaths();
  switch (action) {
    case 'path':
      process.stdout.write(`${file}\n`);
      return 0;
    case 'get': {
      // Effective values, defaults included, so users see what is in force.
      const config = loadConfig(file);
      const value = key ? getAtPath(config, key) : config;
      if (value === undefined) {
        process.stderr.write(`claw config: "${key}" is not set and has no default.\n`);
        return 1;
      }
      process.stdout.write(`${show(redactSkillSecrets(value, key))}\n`);
      return 0;
    }
    case 'set': {
      if (!key || valueWords.length === 0) break;
      const value = parseCliValue(valueWords.join(' '));
      const next = setAtPath(readRawConfig(file), key, value);
      const checked = configSchema.safeParse(next);
      if (!checked.success) {
        const refusal = describeRefusal(checked.error, key, value);
        // Only a refusal of this value is this command's fault; other problems are the file's.
        if (refusal) {
          process.stderr.write(`claw config: ${refusal} Nothing was written.\n`);
          return 2;
        }
      }
      const notServer = checked.success ? Object.entries(checked.data.mcpServers).find(([, entry]) => entry.refused !== undefined) : undefined;
      if (notServer && key.startsWith('mcpServers')) {
        process.stderr.write(`claw config: mcpServers.${notServer[0]}: ${notServer[1].refused}. Nothing was written.\n`);
        return 2;
      }
      const refused = await refuseUnknownModel(next, key, value);
      if (refused) {
        process.stderr.write(`${refused}\n`);
        return 1;
      }
      writeRawConfig(file, next);
      process.stdout.write(`${key} = ${show(redactSkillSecrets(getAtPath(next, key), key))}\n`);
      return 0;
    }
    case 'unset': {
      if (!key) break;
      const { next, removed } = unsetAtPath(readRawConfig(file), key);
      if (!removed) {
        process.stdout.write(`${key} was not set in ${file}\n`);
        return 0;
      }
      writeRawConfig(file, next);
      process.stdout.write(`unset ${key}\n`);
      return 0;
    }
  }
  process.stderr.write(`claw config: ${action ? `bad usage of "${action}"` : 'missing action'}.\n${usage}\n`);
  return 2;
};
