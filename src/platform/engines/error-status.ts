/** HTTP status for each engine error code; engines know nothing of HTTP. */
const STATUS_BY_CODE: Record<string, number> = {
  text_empty: 400,
  voice_not_found: 404,
  engine_not_found: 404,
  language_not_supported: 422,
  method_not_supported: 422,
  audio_unreadable: 415,
  model_invalid: 503,
  engine_unavailable: 503,
  no_worker_for_engine: 503,
  queue_unavailable: 503,
  invalid_engine_call: 500,
  cancelled: 409,
  engine_crashed: 500,
  engine_failed: 500,
  engine_out_of_memory: 507,
  engine_timeout: 504,
  engine_piece_timeout: 422,
  text_not_speakable: 422,
  no_voiced_speech: 422,
  audio_too_short: 422,
  reference_audio_required: 422,
  reference_text_required: 422,
  invalid_style: 422,
};

export function engineErrorStatus(code: string): number {
  return STATUS_BY_CODE[code] ?? 500;
}
