import { i18n, type Messages } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';

/**
 * Renders a component on its own, as the app would inside its providers' I18nProvider: texts in
 * `locale` (English, the code's own text, unless a test loads another catalog's messages).
 */
export function renderTranslated(
  ui: ReactElement,
  { locale = 'en', messages = {}, ...options }: RenderOptions & { locale?: string; messages?: Messages } = {},
) {
  i18n.loadAndActivate({ locale, messages });
  const wrapper = ({ children }: { children: ReactNode }) => <I18nProvider i18n={i18n}>{children}</I18nProvider>;
  return render(ui, { wrapper, ...options });
}
