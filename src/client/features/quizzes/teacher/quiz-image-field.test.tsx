import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { quizImageSchema } from '#shared/quiz-images';
import { useEndpointForm } from '../../../components/form/use-endpoint-form.ts';
import { renderTranslated } from '../../../testing/render-translated.tsx';
import { signInAs, signUpTeacher, signUpStudent } from '../../../testing/server-actors.ts';
import { QuizImageField } from './quiz-image-field.tsx';
import type { DraftImage } from './quiz-draft.ts';

/** A one-pixel PNG: the server decides the type by these bytes. */
const PNG_BYTES = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
  (character) => character.charCodeAt(0),
);
const pngFile = () => new File([PNG_BYTES], 'square.png', { type: 'image/png' });

/** The field in a form of the form layer, as the question editor will hold it. */
function Harness({ onSent }: { onSent(body: unknown): void }) {
  const [image, setImage] = useState<DraftImage | null>(null);
  const form = useEndpointForm({
    schema: z.object({ image: quizImageSchema }),
    toBody: () => ({ image: image && { fileKey: image.fileKey, alt: image.alt } }) as never,
    onSubmit: async (body) => onSent(body),
  });
  return (
    <form {...form.formProps} aria-label="Question">
      <QuizImageField
        label="Question image"
        removeLabel="Remove question image"
        value={image}
        onChange={setImage}
        altField="image.alt"
        altError={form.errors['image.alt']}
      />
      <button type="submit">Save</button>
    </form>
  );
}

describe('QuizImageField', () => {
  it('uploads the chosen image, shows it, asks for its description and removes it', async () => {
    signInAs(await signUpTeacher(), 'teacher');
    const sent: unknown[] = [];
    const user = userEvent.setup();
    renderTranslated(<Harness onSent={(body) => sent.push(body)} />);

    const input = screen.getByLabelText('Question image (optional)');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/gif,image/webp');
    await user.upload(input, pngFile());

    // The thumbnail is the stored image, by an address signed for the teacher.
    const description = await screen.findByRole('textbox', { name: /^Question image: description/ });
    // No description yet: the thumbnail is decorative (alt="") until there is one.
    const thumbnail = document.querySelector('form img')!;
    expect(thumbnail).toHaveAttribute('alt', '');
    const served = await fetch(thumbnail.getAttribute('src')!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');

    // The description is required: the form layer says so at the box and focuses it.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(description).toHaveFocus());
    expect(description).toHaveAccessibleDescription('Describe the image for people who cannot see it');
    expect(sent).toEqual([]);

    await user.type(description, 'A unit square');
    expect(screen.getByRole('img', { name: 'A unit square' })).toBe(thumbnail);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ image: { fileKey: expect.stringMatching(/^[\w-]{24}$/), alt: 'A unit square' } });

    // Remove: the file input is back, with the focus.
    await user.click(screen.getByRole('button', { name: 'Remove question image' }));
    expect(document.querySelector('form img')).toBeNull();
    expect(screen.getByLabelText('Question image (optional)')).toHaveFocus();
  });

  it('refuses a file that is not an image, or too large, before sending it', async () => {
    signInAs(await signUpTeacher(), 'teacher');
    // The accept attribute is a hint a person can overrule ("All files").
    const user = userEvent.setup({ applyAccept: false });
    renderTranslated(<Harness onSent={() => undefined} />);
    const input = screen.getByLabelText('Question image (optional)');

    await user.upload(input, new File(['notes'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose an image: PNG, JPEG, GIF or WebP.');
    expect(input).toHaveAttribute('aria-invalid', 'true');

    await user.upload(input, new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/files up to 5 MB can be uploaded/);
    expect(document.querySelector('form img')).toBeNull();
  });

  it("says the server's refusal at the file input", async () => {
    // A student's session: the server answers 403, and nothing is shown as uploaded.
    signInAs(await signUpStudent(), 'student');
    const user = userEvent.setup();
    renderTranslated(<Harness onSent={() => undefined} />);
    await user.upload(screen.getByLabelText('Question image (optional)'), pngFile());
    expect(await screen.findByRole('alert')).not.toBeEmptyDOMElement();
    expect(document.querySelector('form img')).toBeNull();
  });
});
