import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installGlobalErrorHandlers } from './app/errors';
import './app/global.css';
import App from './App';
import { startedLocale, loadLanguage } from './locales';

// No zod here: the console imports the contract through `@dau/contract/ui`, which has none (zod would probe
// `new Function`, a violation of the server's Content-Security-Policy, which has no 'unsafe-eval').
installGlobalErrorHandlers();

// The saved language's texts first (src/locales/index.ts: only en-US is in the start bundle); a failed
// fetch still renders (the words it lacks show as their keys).
const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
loadLanguage(startedLocale()).then(render, render);
