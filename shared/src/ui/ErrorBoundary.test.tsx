import { render, screen } from '@testing-library/react';
import { ErrorBoundary } from './ErrorBoundary';

function Broken(): never {
  throw new Error('broken part');
}

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => {}));
afterEach(() => jest.restoreAllMocks());

it('shows its children while they work', () => {
  render(
    <ErrorBoundary fallback={<p>Fallback</p>}>
      <p>Working part</p>
    </ErrorBoundary>,
  );
  expect(screen.getByText('Working part')).toBeInTheDocument();
  expect(screen.queryByText('Fallback')).not.toBeInTheDocument();
});

it('keeps a failure inside: the fallback instead of the children, the rest of the page stays, onError hears of it', () => {
  const onError = jest.fn();
  render(
    <>
      <h1>The page</h1>
      <ErrorBoundary fallback={<p>Fallback</p>} onError={onError}>
        <Broken />
      </ErrorBoundary>
    </>,
  );
  expect(screen.getByText('Fallback')).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'The page' })).toBeInTheDocument();
  expect(onError).toHaveBeenCalledWith(new Error('broken part'));
});

it('tries again when given a new key around new children', () => {
  const { rerender } = render(
    <ErrorBoundary key={1} fallback={<p>Fallback</p>}>
      <Broken />
    </ErrorBoundary>,
  );
  rerender(
    <ErrorBoundary key={2} fallback={<p>Fallback</p>}>
      <p>Second attempt</p>
    </ErrorBoundary>,
  );
  expect(screen.getByText('Second attempt')).toBeInTheDocument();
});
