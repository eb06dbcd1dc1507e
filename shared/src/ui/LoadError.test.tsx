import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoadError } from './LoadError';

it('says something went wrong and asks again on Retry', async () => {
  const retry = jest.fn();
  render(<LoadError onRetry={retry} />);
  expect(screen.getByText('Something went wrong')).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(retry).toHaveBeenCalledTimes(1);
});

it('as an alert, says what failed and why, and its Retry names what it retries', () => {
  render(
    <>
      <h2 id="row">Horror movies</h2>
      <LoadError message="Something went wrong while searching." detail="The catalogue did not answer." describedBy="row" onRetry={jest.fn()} alert />
    </>,
  );
  expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong while searching. The catalogue did not answer.');
  expect(screen.getByRole('button', { name: 'Retry' })).toHaveAccessibleDescription('Horror movies');
});
