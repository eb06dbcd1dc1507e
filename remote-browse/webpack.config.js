const { createConfig } = require('../webpack.shared.js');

module.exports = createConfig({
  dir: __dirname,
  exposes: {
    './Browse': './src/pages/Browse.tsx',
    './Movies': './src/pages/Movies.tsx',
    './Series': './src/pages/Series.tsx',
    './MyList': './src/pages/MyList.tsx',
    './ComingSoon': './src/pages/ComingSoon.tsx',
    './Downloads': './src/pages/Downloads.tsx',
  },
});
