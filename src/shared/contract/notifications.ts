import { z } from 'zod/mini';
import {
  markReadSchema,
  notificationListQuerySchema,
  notificationSchema,
  unreadCountSchema,
} from '../notifications.ts';
import { defineEndpoint } from './endpoint.ts';

/** The bell (issue 33 point 5, decision 059): the caller's own notifications, whoever the token names. */

export const listNotifications = defineEndpoint({
  method: 'GET',
  path: '/api/notifications',
  summary: "The caller's notifications, newest first, paged",
  description: 'Each carries its kind (a code) and its params (ids, titles, dates); the client words it.',
  query: notificationListQuerySchema,
  response: z.array(notificationSchema),
  paged: true,
});

export const countUnreadNotifications = defineEndpoint({
  method: 'GET',
  path: '/api/notifications/unread-count',
  summary: "How many of the caller's notifications are unread (counted up to 100)",
  response: unreadCountSchema,
});

export const markNotificationsRead = defineEndpoint({
  method: 'POST',
  path: '/api/notifications/read',
  summary: "Marks the caller's notifications read, up to the newest one the list showed",
  description:
    '`through` is the createdAt of the newest notification listed: those created after it stay unread. ' +
    'Answers the unread count that remains.',
  body: markReadSchema,
  response: unreadCountSchema,
});
