import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/**
 * The web app's layout rules, checked by ESLint (eslint.config.js): one direction of imports,
 * app -> features -> shared (components, lib, i18n). A feature never imports another
 * feature, shared code never imports a feature or the app, and production code never imports
 * the test utilities of src/test/. What two features need goes to components/ or lib/.
 */
const web = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src');
const features = readdirSync(path.join(web, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const featureZones = features.map((feature) => ({
  target: path.join(web, 'features', feature),
  from: path.join(web, 'features'),
  except: [`./${feature}`],
  message: 'A feature does not import another feature: move what both need to components/ or lib/.',
}));

export const webBoundaries = {
  files: ['packages/web/src/**/*.{ts,tsx}'],
  plugins: { 'import-x': importX },
  settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })] },
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      {
        zones: [
          ...featureZones,
          {
            target: ['components', 'lib', 'i18n'].map((folder) => path.join(web, folder)),
            from: [path.join(web, 'features'), path.join(web, 'app')],
            message: 'Shared code does not depend on the features or the app that use it.',
          },
          {
            // Every file but tests and the test utilities themselves.
            target: path.join(web, '{app,components,features,lib,i18n}/**/!(*.test).{ts,tsx}'),
            from: path.join(web, 'test'),
            message: 'Test utilities stay out of production code.',
          },
        ],
      },
    ],
  },
};
