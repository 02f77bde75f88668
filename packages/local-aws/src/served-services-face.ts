// @loglake/local-aws/served-services: the services the endpoint serves, as one line of text, without loading the
// endpoint (so `pnpm lab local --help` answers at once).
export { servedServicesText } from './served-services';
