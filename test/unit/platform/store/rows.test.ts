import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { rowMapper, type RowOf } from '../../../../src/platform/store/rows.js';

interface Thing {
  id: string;
  ownerKeyId: string | null;
  sampleRate: number;
  tags: string[];
  extra: { size: number } | null;
}

const readTags = (value: unknown): string[] => (Array.isArray(value) ? value.filter((tag) => typeof tag === 'string') : []);
const readExtra = (value: unknown): Thing['extra'] =>
  typeof value === 'object' && value !== null && 'size' in value && typeof value.size === 'number' ? { size: value.size } : null;

test('a row maps its snake_case columns to the camelCase fields and reads its JSON columns', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE things (id TEXT, owner_key_id TEXT, sample_rate INTEGER, tags TEXT, extra TEXT)');
  db.prepare('INSERT INTO things VALUES (?, ?, ?, ?, ?)').run('a', 'key-1', 24000, JSON.stringify(['x', 3, 'y']), JSON.stringify({ size: 2 }));
  db.prepare('INSERT INTO things VALUES (?, ?, ?, ?, ?)').run('b', null, 16000, '[]', null);
  const fromRow = rowMapper<Thing, 'tags' | 'extra'>({ tags: readTags, extra: readExtra });
  const rows = db.prepare<[], RowOf<Thing, 'tags' | 'extra'>>('SELECT * FROM things ORDER BY id').all();
  assert.deepEqual(rows.map(fromRow), [
    { id: 'a', ownerKeyId: 'key-1', sampleRate: 24000, tags: ['x', 'y'], extra: { size: 2 } },
    { id: 'b', ownerKeyId: null, sampleRate: 16000, tags: [], extra: null },
  ]);
  db.close();
});
