// A named import: the build keeps only this field of package.json, not the whole file.
import { version } from '../../../package.json';

/** This release of StudyHall (semver, from package.json), shown in the footer. */
export const APP_VERSION: string = version;
