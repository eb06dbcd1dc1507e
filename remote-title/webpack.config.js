const { createConfig } = require('../webpack.shared.js');

module.exports = createConfig({
  dir: __dirname,
  exposes: {
    './MovieDetail': './src/pages/MovieDetail.tsx',
    './SeriesDetail': './src/pages/SeriesDetail.tsx',
  },
});
