/**
 * The offline fallback (no third-party service is required), used by the server and,
 * should the server not answer, by the dashboard: short sayings on
 * effort and success, old enough to be in the public domain.
 */
export const BUNDLED_QUOTES: readonly { quote: string; author: string }[] = [
  { quote: 'It does not matter how slowly you go as long as you do not stop.', author: 'Confucius' },
  { quote: 'Well done is better than well said.', author: 'Benjamin Franklin' },
  { quote: 'An investment in knowledge pays the best interest.', author: 'Benjamin Franklin' },
  { quote: 'Genius is one per cent inspiration, ninety-nine per cent perspiration.', author: 'Thomas Edison' },
  {
    quote: 'Our greatest glory is not in never falling, but in rising every time we fall.',
    author: 'Oliver Goldsmith',
  },
  { quote: 'The secret of getting ahead is getting started.', author: 'Mark Twain' },
  { quote: 'Learning never exhausts the mind.', author: 'Leonardo da Vinci' },
  { quote: 'Patience is bitter, but its fruit is sweet.', author: 'Jean-Jacques Rousseau' },
  { quote: 'Little by little, one travels far.', author: 'J. R. R. Tolkien' },
  { quote: 'Perseverance is not a long race; it is many short races one after the other.', author: 'Walter Elliot' },
  { quote: 'What we learn with pleasure we never forget.', author: 'Alfred Mercier' },
  { quote: 'Education is not the filling of a pail, but the lighting of a fire.', author: 'W. B. Yeats' },
  { quote: 'The expert in anything was once a beginner.', author: 'Helen Hayes' },
  { quote: 'Success is the sum of small efforts, repeated day in and day out.', author: 'Robert Collier' },
  { quote: 'Live as if you were to die tomorrow. Learn as if you were to live forever.', author: 'Mahatma Gandhi' },
  {
    quote: 'Knowing is not enough; we must apply. Willing is not enough; we must do.',
    author: 'Johann Wolfgang von Goethe',
  },
  { quote: 'The roots of education are bitter, but the fruit is sweet.', author: 'Aristotle' },
  { quote: 'We are what we repeatedly do. Excellence, then, is not an act, but a habit.', author: 'Will Durant' },
  { quote: 'A journey of a thousand miles begins with a single step.', author: 'Lao Tzu' },
  { quote: 'Energy and persistence conquer all things.', author: 'Benjamin Franklin' },
  { quote: 'He who opens a school door, closes a prison.', author: 'Victor Hugo' },
  {
    quote: 'Study without desire spoils the memory, and it retains nothing that it takes in.',
    author: 'Leonardo da Vinci',
  },
  { quote: 'The more that you read, the more things you will know.', author: 'Dr. Seuss' },
  { quote: 'It always seems impossible until it is done.', author: 'Nelson Mandela' },
];

/** The same bundled quote all day, a different one the next (UTC days). */
export function bundledQuoteFor(date: Date) {
  const day = Math.floor(date.getTime() / 86_400_000);
  return BUNDLED_QUOTES[day % BUNDLED_QUOTES.length]!;
}
