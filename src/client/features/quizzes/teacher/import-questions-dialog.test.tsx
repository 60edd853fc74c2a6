import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TypedQuestionInput } from '#shared/question-types';
import { ImportQuestionsButton } from './import-questions-button.tsx';
import { renderTranslated } from '../../../testing/render-translated.tsx';

const GIFT = [
  'What is 2 + 2? {=4 ~3 ~5}', // 1
  '',
  'Name a French city {=%50%Lyon}', // 3: no answer worth 100%
  '',
  '// points: 2',
  'The sun is a star. {T}', // 6
].join('\n');

function openDialog() {
  const onImport = vi.fn<(questions: TypedQuestionInput[]) => void>();
  const user = userEvent.setup();
  renderTranslated(<ImportQuestionsButton onImport={onImport} />);
  return { onImport, user };
}

describe('Import questions', () => {
  it('lists each problem with its line and imports only once errors are skipped', async () => {
    const { onImport, user } = openDialog();
    await user.click(screen.getByRole('button', { name: 'Import questions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import questions' });
    const text = await within(dialog).findByLabelText('Or paste the questions');
    const importButton = within(dialog).getByRole('button', { name: 'Import' });
    expect(importButton).toBeDisabled();

    await user.click(text);
    await user.paste(GIFT);
    await user.click(within(dialog).getByRole('button', { name: 'Check' }));
    expect(within(dialog).getByRole('status')).toHaveTextContent('2 questions ready, 1 question with errors.');
    expect(
      within(within(dialog).getByRole('list', { name: 'Problems' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Line 3, error:No short answer is worth 100%']);
    const importTwo = within(dialog).getByRole('button', { name: 'Import 2 questions' });
    expect(importTwo).toBeDisabled();

    await user.click(within(dialog).getByRole('checkbox', { name: 'Skip the 1 question with errors' }));
    expect(importTwo).toBeEnabled();
    // A change to the text asks for a new check.
    await user.type(text, ' ');
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();
    expect(within(dialog).queryByRole('status')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Check' }));
    expect(within(dialog).getByRole('button', { name: 'Check again' })).toBeEnabled();
    // The choice to skip is made again for the new check.
    expect(within(dialog).getByRole('button', { name: 'Import 2 questions' })).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Skip the 1 question with errors' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import 2 questions' }));

    expect(onImport).toHaveBeenCalledExactlyOnceWith([
      {
        type: 'single',
        question_text: 'What is 2 + 2?',
        points: 1,
        options: [
          { text: '4', correct: true },
          { text: '3', correct: false },
          { text: '5', correct: false },
        ],
      },
      { type: 'true-false', question_text: 'The sun is a star.', points: 2, correct: true },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('reads an Aiken file chosen from disk', async () => {
    const { onImport, user } = openDialog();
    await user.click(screen.getByRole('button', { name: 'Import questions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import questions' });
    await user.selectOptions(await within(dialog).findByLabelText('Format'), 'Aiken');
    const file = new File(['Pick B\nA. one\nB. two\nANSWER: B\n'], 'bank.txt', { type: 'text/plain' });
    await user.upload(within(dialog).getByLabelText('File (.txt or .gift)'), file);
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Or paste the questions')).toHaveValue(
        'Pick B\nA. one\nB. two\nANSWER: B\n',
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Check' }));
    expect(within(dialog).getByRole('status')).toHaveTextContent('1 question ready.');
    expect(within(dialog).queryByRole('list', { name: 'Problems' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Import 1 question' }));
    expect(onImport).toHaveBeenCalledExactlyOnceWith([
      {
        type: 'single',
        question_text: 'Pick B',
        points: 1,
        options: [
          { text: 'one', correct: false },
          { text: 'two', correct: true },
        ],
      },
    ]);
  });
});
