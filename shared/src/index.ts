// The public face of `shared`: the contract between the Netnet teams. It ships whole to every
// page as a singleton, so only what every area needs belongs here. Its style sheet is an entry of
// its own (`@netnet/shared/styles`), which the shell links once for the whole page.

export * from './types';
export * from './pages';
export * from './config';
export * from './router';
export * from './auth';
export * from './catalogue';
export { Spinner } from './ui/Spinner';
export { Skeleton } from './ui/Skeleton';
export { Poster } from './ui/Poster';
export * from './store';
export { MyListButton, type MyListButtonProps } from './ui/MyListButton';
export { ActionButton } from './ui/ActionButton';
export { Icon, icons } from './ui/Icon';
export { LoadError } from './ui/LoadError';
export { ErrorBoundary } from './ui/ErrorBoundary';
export { Notice } from './ui/Notice';
export { documentTitle, usePageTitle, SITE_NAME } from './pageTitle';
export { showPageNotice, usePageNotice } from './pageNotice';
