/** A handler's answer sent as these bytes with this content type instead of JSON (an archived raw page). */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly bytes: Buffer,
  ) {}
}
