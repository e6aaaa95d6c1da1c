/**
 * Hand-trimmed RPC replies in the front end's framing. Structure and values follow replies
 * recorded by tobyrushton/gflights (testdata/location/abbr/london.txt and
 * testdata/price_graph/return.txt, commit 5773ddee538c10c767f24cdf0f389d4a87afc066);
 * lists were cut to a few entries, so the length prefixes are not the originals'.
 */

function frame(rpcId: string | null, inner: unknown): string {
  const line = JSON.stringify([['wrb.fr', rpcId, JSON.stringify(inner), null, null, null, 'generic']]);
  return `)]}'\n\n${line.length}\n${line}\n54\n[["di",71],["af.httprm",71,"1335759381184056230",7]]\n26\n[["e",4,null,null,2187]]\n`;
}

const airport = (name: string, city: string, cityId: string, code: string, distance: string) => [
  [1, name, city, null, cityId, code, null, null, code, null, null, 1],
  distance,
];

export const LOCATION_LONDON = frame('H028ib', [
  [
    [
      [3, 'London', 'London', 'Capital of England', '/m/04jpl', null, null, null, null, null, null, 3, 0.9906449913978577],
      [
        airport('Heathrow Airport', 'London', '/m/04jpl', 'LHR', '14 mi'),
        airport('London Gatwick Airport', 'London', '/m/04jpl', 'LGW', '25 mi'),
        [[5, 'St Pancras International', 'London', null, '/m/04jpl', 'QQS', null, null, 'St Pancras International', null, null, 5], '2 mi'],
      ],
    ],
    [[4, 'Greater London', 'Greater London', 'Ceremonial county in England', '/m/036wy', null, null, null, null, null, null, 4, 0.6792528033256531]],
  ],
]);

const token = (t: string) => `CjRISHlRUzIzeWJlajBBUWVHSndCRy0tLS0tLS0tLWVmeXQxN0FBQUFBR2xBUUZRRGpDWlVBEg${t}`;

export const CALENDAR_GRAPH_RETURN = frame(null, [
  [null, [[1765818452224878, 139788670, 1731854524], null, null, null, null, [[0]]], 0, 'VEBAae7cDf6C1PIPvIHouQY', 'HHyQS23ybej0AQeGJwBG---------efyt17AAAAAGlAQFQDjCZUA'],
  [
    ['2026-01-05', '2026-01-12', [[null, 676], token('UxODoyNRoLCI6QBBACGgNHQlA4FnCLwwU=')], 1],
    ['2026-01-06', '2026-01-13', [[null, 630], token('UxOToyNhoLCO/rAxACGgNHQlA4FnDIkgU=')], 1],
    ['2026-01-12', '2026-01-19', [[null, 408], token('UyNTozMhoLCNS+AhACGgNHQlA4FnDTqgM=')], 1],
  ],
]);

export const RPC_REFUSED = `)]}'\n\n[["wrb.fr",null,null,null,null,[13]],["di",34],["af.httprm",33,"x",79]]\n`;
