import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './styles/tokens.css';
import './styles/base.css';
import './styles/landing.css';
import './styles/pages.css';
import './styles/node-dashboard.css';
import './styles/wallet.css';
import './styles/client-dashboard.css';
import './styles/market.css';

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
