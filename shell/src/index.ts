import { requestRuntimeDocuments } from './boot/runtimeDocuments';

requestRuntimeDocuments();
// An async boundary lets Module Federation negotiate shared singletons before any of them runs.
import('./bootstrap');
