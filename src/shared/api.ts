/** The response envelope every /api endpoint speaks (SPEC §7). */
export type ApiSuccess<T> = { success: true; message: string; data: T; page?: PageInfo };

/** Paged lists keep data a plain list (SPEC §7) and say here whether more follow. */
export type PageInfo = { offset: number; limit: number; hasMore: boolean };

/** One problem with one input field, so forms can show it next to the field. */
export type FieldError = { field: string; message: string };

export type ApiFailure = {
  success: false;
  message: string;
  data: null;
  /** Present on 400 validation failures. */
  errors?: FieldError[];
};

export type ApiEnvelope<T> = ApiSuccess<T> | ApiFailure;
