import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config as zodConfig } from 'zod';
import { installGlobalErrorHandlers } from './app/errors';
import './app/global.css';
import App from './App';

// The server's Content-Security-Policy has no 'unsafe-eval': zod (through @dau/contract) must not probe
// `new Function`, which the browser reports as a CSP violation on every screen.
zodConfig({ jitless: true });
installGlobalErrorHandlers();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
