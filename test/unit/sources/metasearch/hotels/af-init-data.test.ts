import { describe, expect, it } from 'vitest';
import { at } from '../../../../../src/domain/json.js';
import { dataServiceRpcIds, extractInitData } from '../../../../../src/sources/metasearch/hotels/af-init-data.js';

/** Hand-written page in the shape of the recorded ones (see test/fixtures/README.md). */
const PAGE = [
  `<script nonce="x">var AF_initDataKeys = ["ds:0","ds:1"]; var AF_dataServiceRequests = {'ds:0' : {id:'AtySUc',request:["Paris",[1]]},'ds:1' : {id:'c8GpOe',request:[]}}; var AF_initDataCallback; if (!AF_initDataCallback) {AF_initDataCallback = function(chunk) {};}</script>`,
  `<script class="ds:1" nonce="x">AF_initDataCallback({key: 'ds:1', hash: '1', data:[[["EUR","Euro"]]], sideChannel: {}});</script>`,
  `<script class="ds:0" nonce="x">AF_initDataCallback({key: 'ds:0', hash: '2', data:[["a ] tricky \\" string [",{"397419284":[1,"}"]}],null], sideChannel: {}});</script>`,
  `<script nonce="x">AF_initDataCallback({key: 'ds:2', hash: '3', isError: true, sideChannel: {}});</script>`,
].join('');

describe('metasearch hotels AF_initDataCallback extraction', () => {
  it('cuts every blob by bracket balance, strings with brackets and escaped quotes included', () => {
    const blobs = extractInitData(PAGE);
    expect(blobs.map((b) => b.key)).toEqual(['ds:1', 'ds:0', 'ds:2']);
    expect(blobs[0].data).toEqual([[['EUR', 'Euro']]]);
    expect(at(blobs[1].data, 0, 0)).toBe('a ] tricky " string [');
    expect(at(blobs[1].data, 0, 1, '397419284', 1)).toBe('}');
    expect(blobs[2].data).toBeUndefined();
  });

  it('maps ds keys to their RPC ids', () => {
    expect([...dataServiceRpcIds(PAGE)]).toEqual([
      ['ds:0', 'AtySUc'],
      ['ds:1', 'c8GpOe'],
    ]);
  });

  it("does not lend the next blob's data to an error blob", () => {
    const blobs = extractInitData(`AF_initDataCallback({key: 'ds:0', isError: true});AF_initDataCallback({key: 'ds:1', hash: '1', data:[7]});`);
    expect(blobs).toEqual([
      { key: 'ds:0', data: undefined },
      { key: 'ds:1', data: [7] },
    ]);
  });

  it('skips an unbalanced blob instead of throwing', () => {
    expect(extractInitData(`AF_initDataCallback({key: 'ds:0', hash: '1', data:[[1,2`)).toEqual([]);
  });

  it('reads nested paths without throwing on the wrong shape', () => {
    expect(at({ a: [1, [2, 3]] }, 'a', 1, 0)).toBe(2);
    expect(at({ a: 1 }, 'a', 0)).toBeUndefined();
    expect(at([1], 'x')).toBeUndefined();
  });
});
