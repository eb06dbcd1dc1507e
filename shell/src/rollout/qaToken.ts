// A QA link (`?qa-token=…`, made by `npm run qa-token`) lets one browser pin versions in a
// production environment. The shell's server answers such a link with a redirect to the address
// without the token, moved into an HttpOnly cookie (control-plane/src/rollouts/qaToken.ts): no page
// script ever reads it, and no request of the page carries it in its address or its Referer.
export const QA_TOKEN_PARAM = 'qa-token';
