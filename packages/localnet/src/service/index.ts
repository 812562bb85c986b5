export { startLocalService, type LocalService } from "./service.js";
export {
  DEFAULT_DEADLINES,
  LocalServiceConfigError,
  validateLocalServiceConfig,
  type LocalServiceChainConfig,
  type LocalServiceConfig,
  type LocalServiceDeadlines,
  type LocalServiceSolverConfig,
} from "./config.js";
export { serviceOrderId } from "./orders/order-id.js";
export { APP_ID_HEADER } from "./http/server.js";
