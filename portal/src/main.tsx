import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// First, so every component's own stylesheet (imported beside it) follows the shared base.
import './styles/tokens.css';
import './styles/base.css';
import { App } from './app/app';
import { sessionStore } from './features/session/store';
import { initI18n } from './lib/i18n/i18n';

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

// The detected language's catalogue first (the account's saved one when the stored session has
// it, docs/i18n.md; English is bundled, another is one small chunk), so a Persian reader never
// sees the page flash in English and flip direction.
void initI18n(sessionStore.user?.locale).finally(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
