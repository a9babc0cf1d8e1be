import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { startInProcess, type InProcessTimbre } from '../../../helpers/in-process.js';

const RELATIONS = ['self', 'child', 'grandchild', 'parent', 'top', 'sibling', 'stranger'] as const;
type Relation = (typeof RELATIONS)[number];
/** The caller's line: itself and the keys below it. */
const IN_LINE: readonly Relation[] = ['self', 'child', 'grandchild'];

/** What a key may try on another key, as the request that does it. */
const ACTIONS: Record<string, (keyId: string) => InjectOptions> = {
  rename: (keyId) => ({ method: 'PATCH', url: `/api/api-keys/${keyId}`, payload: { name: 'renamed' } }),
  'change the limits of': (keyId) => ({ method: 'PATCH', url: `/api/api-keys/${keyId}`, payload: { rate_limits: { 'system:read': 1 } } }),
  revoke: (keyId) => ({ method: 'POST', url: `/api/api-keys/${keyId}/revoke` }),
  delete: (keyId) => ({ method: 'DELETE', url: `/api/api-keys/${keyId}` }),
};

describe('a key sees and manages only its own line', () => {
  let timbre: InProcessTimbre;
  before(async () => {
    timbre = await startInProcess();
  });
  after(() => timbre.close());

  /**
   * A family of keys minted through the API: `top` is a root (made as the CLI makes keys),
   * `parent` minted by top, the caller (system:read only, as in the report of issue 27) by
   * parent, `child` by the caller and `grandchild` by child; `sibling` is another key of parent,
   * `stranger` another root with every scope.
   */
  async function family(): Promise<{ caller: string; ids: Record<Relation, string> }> {
    const mint = async (creator: string, body: object) => {
      const created = await timbre.call({ method: 'POST', url: '/api/api-keys', key: creator, payload: body });
      assert.equal(created.statusCode, 201, created.body);
      return created.json<{ key: string; key_id: string }>();
    };
    const top = timbre.services.keys.create({ name: 'top' });
    const parent = await mint(top.secret, { name: 'parent' });
    const caller = await mint(parent.key, { name: 'caller', scopes: ['system:read'] });
    const child = await mint(caller.key, { name: 'child' });
    const grandchild = await mint(child.key, { name: 'grandchild' });
    const sibling = await mint(parent.key, { name: 'sibling' });
    const stranger = timbre.services.keys.create({ name: 'stranger' });
    const ids = {
      self: caller.key_id,
      child: child.key_id,
      grandchild: grandchild.key_id,
      parent: parent.key_id,
      top: top.record.keyId,
      sibling: sibling.key_id,
      stranger: stranger.record.keyId,
    };
    return { caller: caller.key, ids };
  }

  test('the list holds the key and the keys below it, nothing of its creators, siblings or other roots', async () => {
    const { caller, ids } = await family();
    const listed = await timbre.call({ method: 'GET', url: '/api/api-keys', key: caller });
    assert.equal(listed.statusCode, 200);
    const keys = listed.json<{ keys: { key_id: string; name: string }[] }>().keys;
    assert.deepEqual(
      keys.map((key) => key.name),
      ['caller', 'child', 'grandchild'],
    );
    assert.deepEqual(
      keys.map((key) => key.key_id),
      IN_LINE.map((relation) => ids[relation]),
    );
  });

  test('keys minted by the same key do not see each other; a root sees its whole line', async () => {
    const { ids } = await family();
    const sibling = timbre.services.keys.create({ name: 'another' }, timbre.services.keys.get(ids.parent));
    const listed = await timbre.call({ method: 'GET', url: '/api/api-keys', key: sibling.secret });
    assert.deepEqual(
      listed.json<{ keys: { name: string }[] }>().keys.map((key) => key.name),
      ['another'],
    );
    const admin = await timbre.call({ method: 'GET', url: '/api/api-keys' });
    assert.ok(!admin.body.includes(ids.top), 'the admin is a root of its own: another root’s line is not in its list');
  });

  for (const [action, requestFor] of Object.entries(ACTIONS)) {
    test(`a key can ${action} itself and the keys below it; any other key is answered as missing and stays as it was`, async () => {
      for (const relation of RELATIONS) {
        const { caller, ids } = await family();
        const before = timbre.services.keys.get(ids[relation]);
        const response = await timbre.call({ ...requestFor(ids[relation]), key: caller });
        if (IN_LINE.includes(relation)) {
          assert.ok(response.statusCode === 200 || response.statusCode === 204, `${relation}: ${response.statusCode} ${response.body}`);
          continue;
        }
        assert.equal(response.statusCode, 404, `${relation}: ${response.body}`);
        assert.equal(response.json<{ error: { code: string } }>().error.code, 'key_not_found');
        assert.deepEqual(timbre.services.keys.get(ids[relation]), before, `${relation} is unchanged`);
      }
    });
  }

  test('a key answered as missing looks like an id that never existed', async () => {
    const { caller, ids } = await family();
    const foreign = await timbre.call({ method: 'POST', url: `/api/api-keys/${ids.parent}/revoke`, key: caller });
    const unknown = await timbre.call({ method: 'POST', url: '/api/api-keys/key_neverexisted/revoke', key: caller });
    assert.deepEqual([foreign.statusCode, unknown.statusCode], [404, 404]);
    assert.deepEqual(Object.keys(foreign.json<{ error: object }>().error), Object.keys(unknown.json<{ error: object }>().error));
  });

  test('keys made by a deleted key stay below the key that made it', async () => {
    const { caller, ids } = await family();
    assert.equal((await timbre.call({ method: 'DELETE', url: `/api/api-keys/${ids.child}`, key: caller })).statusCode, 204);
    const listed = await timbre.call({ method: 'GET', url: '/api/api-keys', key: caller });
    assert.deepEqual(
      listed.json<{ keys: { name: string }[] }>().keys.map((key) => key.name),
      ['caller', 'grandchild'],
    );
    assert.equal((await timbre.call({ method: 'POST', url: `/api/api-keys/${ids.grandchild}/revoke`, key: caller })).statusCode, 200);
  });
});
