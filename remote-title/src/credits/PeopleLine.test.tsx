import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PeopleLine } from './PeopleLine';

const cast = ['Ann', 'Ben', 'Cat', 'Dan', 'Eve', 'Fay', 'Gus', 'Hal'];

it('shows 4 names, 7 after more, and 4 again after less', async () => {
  render(<PeopleLine label="Cast" names={cast} />);
  expect(screen.getByText('Ann, Ben, Cat, Dan…')).toBeInTheDocument();
  const more = screen.getByRole('button', { name: 'more cast' });
  expect(more).toHaveAttribute('aria-expanded', 'false');

  await userEvent.click(more);
  expect(screen.getByText('Ann, Ben, Cat, Dan, Eve, Fay, Gus…')).toBeInTheDocument();
  const less = screen.getByRole('button', { name: 'less cast' });
  expect(less).toHaveAttribute('aria-expanded', 'true');

  await userEvent.click(less);
  expect(screen.getByText('Ann, Ben, Cat, Dan…')).toBeInTheDocument();
});

it('has no more control for 4 names or fewer, and nothing at all for none', () => {
  const { container, rerender } = render(<PeopleLine label="Director" names={['Lana', 'Lilly']} />);
  expect(screen.getByText('Lana, Lilly')).toBeInTheDocument();
  expect(screen.queryByRole('button')).not.toBeInTheDocument();
  rerender(<PeopleLine label="Director" names={[]} />);
  expect(container).toBeEmptyDOMElement();
});
