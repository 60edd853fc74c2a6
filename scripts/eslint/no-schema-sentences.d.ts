export declare const NO_SCHEMA_SENTENCES: { selector: string; message: string }[];
