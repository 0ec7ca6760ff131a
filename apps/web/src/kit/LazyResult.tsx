import { useEffect, useState, type ComponentType } from 'react';
import type { ResultProps } from 'antd';

/**
 * antd's Result, loaded when first shown: its module carries the 403, 404 and 500 illustrations (a third
 * of the landing page's antd), and the shell and the screens show a Result only when something is wrong.
 * While it loads nothing is shown; if it cannot be loaded (the connection is down: the very case a
 * "resource error" reports) the same title, text and buttons show without the illustration.
 */
let loaded: ComponentType<ResultProps> | null = null;

export function Result(props: ResultProps) {
  const [Loaded, setLoaded] = useState(() => loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (Loaded) return;
    let live = true;
    import('antd/es/result').then(
      (m) => {
        loaded = m.default;
        if (live) setLoaded(() => m.default);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [Loaded]);
  if (Loaded) return <Loaded {...props} />;
  if (!failed) return null;
  return (
    <div role="status" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <h3>{props.title}</h3>
      {props.subTitle && <p>{props.subTitle}</p>}
      {props.extra}
    </div>
  );
}
