import packageJson from '../../package.json' with { type: 'json' };

/** This release of StudyHall (semver, from package.json): GET /api/health answers it. */
export const APP_VERSION: string = packageJson.version;
