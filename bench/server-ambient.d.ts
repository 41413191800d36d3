// The bench imports the server's source, so the root project (tsconfig.json) type-checks it
// too and needs the server's ambient module declarations, which nothing imports.
// (Adding "packages/server/src/types" to the root tsconfig's include would do the same.)
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../packages/server/src/types/geoip-country.d.ts" />
