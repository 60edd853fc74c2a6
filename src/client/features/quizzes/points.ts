/**
 * Points as a teacher writes them: 1, 1.5, 0.25 (earned points may have hundredths). Its own
 * module so the editor and the lists take it without the review helpers (route budgets).
 */
export const formatPoints = (points: number) => String(Math.round(points * 100) / 100);

export const pointsLabel = (points: number) => `${formatPoints(points)} ${points === 1 ? 'point' : 'points'}`;
