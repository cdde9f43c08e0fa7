import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// First, so every component's own stylesheet (imported beside it) follows the shared base.
import './styles/tokens.css';
import './styles/base.css';
import { App } from './app/app';

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
