import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installGlobalErrorHandlers } from './app/errors';
import './app/global.css';
import App from './App';

// No zod here: the console imports the contract through `@dau/contract/ui`, which has none (zod would probe
// `new Function`, a violation of the server's Content-Security-Policy, which has no 'unsafe-eval').
installGlobalErrorHandlers();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
