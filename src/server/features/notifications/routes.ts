import type { FastifyPluginAsync } from 'fastify';
import { countUnreadNotifications, listNotifications, markNotificationsRead } from '#shared/contract/notifications';
import { routeEndpoint } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { NotificationsService } from './service.ts';

/** The bell of both roles (decision 059): the caller's own notifications, the token decides whose. */
export function notificationsRoutes(notifications: NotificationsService): FastifyPluginAsync {
  return async (app) => {
    const own = { config: { policy: { caller: 'signed-in', touches: ['own-notifications'] } } } as const;

    routeEndpoint(app, listNotifications, own, async (request) => {
      const { offset, limit } = request.query;
      return {
        message: 'Notifications found',
        listed: await notifications.list(currentUser(request), { offset, limit }),
        page: { offset, limit },
      };
    });

    routeEndpoint(app, countUnreadNotifications, own, async (request) => ({
      message: 'Unread notifications counted',
      data: await notifications.unreadCount(currentUser(request)),
    }));

    routeEndpoint(app, markNotificationsRead, own, async (request) => ({
      message: 'Notifications marked read',
      data: await notifications.markRead(currentUser(request), request.body),
    }));
  };
}
