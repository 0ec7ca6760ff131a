/** One language of the product's messages, generated from @dau/domain's MESSAGES by vite.config.ts. */
declare module 'virtual:spec-messages/*' {
  const catalogue: Readonly<Record<string, string>>;
  export default catalogue;
}
