import { requestRuntimeDocuments } from './boot/runtimeDocuments';
import { SERVER_STATE_ID } from './boot/serverState';

// A page the server rendered brings its runtime documents; any other asks for them at once.
if (!document.getElementById(SERVER_STATE_ID)) requestRuntimeDocuments();
// An async boundary lets Module Federation negotiate shared singletons before any of them runs.
import('./bootstrap');
