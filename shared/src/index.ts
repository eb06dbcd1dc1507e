// The public face of `shared`: the contract between the Netnet teams. It ships whole to every
// page as a singleton, so only what every area needs belongs here.
import './styles/tokens.scss';

export * from './types';
export * from './routes';
export * from './config';
export * from './router';
export * from './auth';
export * from './catalogue';
export { Spinner } from './ui/Spinner';
export { Skeleton } from './ui/Skeleton';
export { Poster } from './ui/Poster';
export { renderStandalone } from './standalone';
export * from './store';
export { MyListButton, type MyListButtonProps } from './ui/MyListButton';
export { ActionButton, ActionIcon } from './ui/ActionButton';
export { Notice } from './ui/Notice';
