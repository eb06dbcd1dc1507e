// A runtime plugin inside every remote's server build (webpack.shared.js). The server build emits
// no files of its own: the images and video a page imports are the browser build's. The shell's
// server says where that build lives when it starts the container (shell/src/server/sandbox/worker.ts),
// so a URL rendered on the server is exactly the one the browser would have made.
export default function serverPublicPath() {
  return {
    name: 'netnet-server-public-path',
    beforeInit(args) {
      const base = args.userOptions && args.userOptions.netnetPublicPath;
      if (typeof base === 'string') __webpack_public_path__ = base;
      return args;
    },
  };
}
