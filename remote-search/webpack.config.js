const { createConfig } = require('../webpack.shared.js');

// This remote's exposed pages come from the page table in shared (see webpack.shared.js).
module.exports = createConfig({ dir: __dirname });
