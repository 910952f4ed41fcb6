/**
 * The contract violations of the fault catalogue (`Faults.violations`), one record each, kept by
 * check in this folder: `<check>.ts` holds the records whose rule belongs to that check of
 * `ContractChecks`. `app.ts` composes the hooks of the violations a request gets once per set of
 * them; the faithful path runs none of this.
 *
 * @internal
 */
import type { ContractRules } from "@data-access/schema"
import * as Auth from "./auth.js"
import * as CreateEcho from "./create-echo.js"
import * as ErrorShape from "./error-shape.js"
import * as InvalidRejected from "./invalid-rejected.js"
import * as NoServerErrors from "./no-server-errors.js"
import * as Paging from "./paging.js"
import * as Protocol from "./protocol.js"
import * as ResponseSchema from "./response-schema.js"
import * as SearchFilter from "./search-filter.js"
import * as Secrets from "./secrets.js"
import * as StableReads from "./stable-reads.js"
import * as SuccessShape from "./success-shape.js"
import * as Timestamps from "./timestamps.js"
import * as UpdateSemantics from "./update-semantics.js"
import * as ValidAccepted from "./valid-accepted.js"
import type { ViolationRecord } from "../violationRecord.js"

export type { ViolationRecord } from "../violationRecord.js"

/**
 * The catalogue in its published order (`Faults.violations`), which is also the order hooks of the
 * same stage compose in, the first innermost; it is not grouped by check, and
 * `test/violation-modules.test.ts` pins it.
 */
export const records = [
  NoServerErrors.serverErrorOnUnknownField,
  SuccessShape.successContentType,
  ErrorShape.invalidErrorBody,
  ErrorShape.wrongStatusForCode,
  ErrorShape.rateLimitWithoutRetryAfter,
  ErrorShape.rateLimitResetDelta,
  ErrorShape.unknownIdInvalid,
  ErrorShape.unknownReferenceAccepted,
  Secrets.secretInError,
  Secrets.keyInError,
  ResponseSchema.missingRequiredField,
  ResponseSchema.wrongFieldType,
  ResponseSchema.nonUtcTimestamp,
  ResponseSchema.timestampFractionDigits,
  ResponseSchema.int64AsNumber,
  ResponseSchema.snakeCaseOutput,
  Timestamps.createdAtInFuture,
  Timestamps.expiresAtInPast,
  ValidAccepted.rejectsUnknownField,
  ValidAccepted.rejectsSnakeCase,
  ValidAccepted.rejectsNull,
  ValidAccepted.requiresOptionalField,
  ValidAccepted.limitOffByOne,
  InvalidRejected.ignoredMinLength,
  InvalidRejected.ignoredLimitRange,
  InvalidRejected.ignoredEnum,
  InvalidRejected.ignoredJsonType,
  InvalidRejected.listEntryTypeDropped,
  InvalidRejected.ignoredRequired,
  InvalidRejected.ignoredOneOf,
  InvalidRejected.ignoredConnectorNamePattern,
  InvalidRejected.emptyBodyAccepted,
  InvalidRejected.nonObjectBodyAccepted,
  InvalidRejected.unknownCursorAccepted,
  InvalidRejected.unknownFilterKeyAccepted,
  InvalidRejected.emptyGroupAccepted,
  InvalidRejected.ignoredFilterOneOf,
  Auth.authIgnored,
  Protocol.wrongMethodAccepted,
  Protocol.unknownRouteWrongCode,
  Protocol.contentTypeIgnored,
  Protocol.versionHeaderIgnored,
  Protocol.smallBodyLimit,
  Protocol.deadlineWrongCode,
  Protocol.deadlineHeld,
  Protocol.longDeadlinePassed,
  Protocol.mediaTypeExact,
  ValidAccepted.jsonEscapesLiteral,
  ValidAccepted.zeroValueRefused,
  Protocol.routeCaseInsensitive,
  Protocol.routeByMethodName,
  Protocol.routeByPrefix,
  CreateEcho.idsFromClock,
  CreateEcho.createNotEchoed,
  CreateEcho.identityLinkWrongGroup,
  CreateEcho.identityLinkWithoutNativeUser,
  CreateEcho.createWithoutCreatedAt,
  CreateEcho.createDefaultNotZero,
  CreateEcho.passwordForAnotherUser,
  CreateEcho.createStoredDifferently,
  UpdateSemantics.updateIgnored,
  UpdateSemantics.updateKeepsOldReference,
  UpdateSemantics.updateFalseIgnored,
  UpdateSemantics.updateClearsUnsent,
  UpdateSemantics.updateNullClears,
  UpdateSemantics.updateNotStored,
  UpdateSemantics.updatedAtNotMoved,
  UpdateSemantics.updateStaleIndex,
  Paging.pagingCountMismatch,
  Paging.limitExceeded,
  Paging.pagingDuplicates,
  Paging.pagingSkips,
  Paging.nextCursorOnLastPage,
  Paging.emptyPageNextCursor,
  Paging.afterBeforeSwapped,
  Paging.orderIgnored,
  SearchFilter.searchIgnored,
  SearchFilter.searchCaseSensitive,
  SearchFilter.searchFieldsIgnored,
  SearchFilter.filterIgnored,
  SearchFilter.filterOrAsAnd,
  SearchFilter.timeFilterAsText,
  SearchFilter.timeFilterValuePrecision,
  SearchFilter.spaceFilterIgnored,
  SearchFilter.parentScopeIgnored,
  SearchFilter.keyIdIgnored,
  SearchFilter.keyIdAsObjectId,
  StableReads.getWrongObject,
  StableReads.unstableRead,
  InvalidRejected.sharedSearchFields,
  InvalidRejected.sharedFilterKeys,
  SearchFilter.searchLikeWildcards,
  SearchFilter.filterRegex,
  SearchFilter.emptyOperatorsNull,
  Paging.cursorPageNumber,
  ValidAccepted.limitOneRefused,
  ValidAccepted.shortParentIdRefused,
  ValidAccepted.name255Refused,
  Protocol.mediaTypeParameterRefused,
  SuccessShape.successByteOrderMark,
  ErrorShape.errorByteOrderMark,
  SearchFilter.selectionFirstPageOnly,
  SearchFilter.emptySearchFieldsNothing,
  InvalidRejected.minLengthInBytes,
  UpdateSemantics.listWithoutNested,
  UpdateSemantics.updateTurnsOffUnsent,
  SearchFilter.timeFilterFractionGrouped,
  SearchFilter.timeFilterOffsetIgnored,
  ValidAccepted.nestedNullRefused,
  ValidAccepted.jsonEscapesNestedLiteral,
  InvalidRejected.booleanStringsCoerced,
  SearchFilter.nestedOrAsAnd,
  ValidAccepted.leadingDigitNameRefused,
  CreateEcho.listsForgetOlderCreates,
  SearchFilter.searchAsciiCaseFolding,
  SuccessShape.successCharsetLatin1,
  ErrorShape.errorCharsetLatin1,
  SuccessShape.longAnswersCut,
  CreateEcho.secretsMasked,
  StableReads.listedFlagsInverted,
  ErrorShape.idsMatchLoosely,
  SearchFilter.keyIdsMatchLoosely,
  CreateEcho.storedTextTrimmed,
  CreateEcho.longTextCut,
  Protocol.deadlineOverflow,
  SearchFilter.searchTermTrimmed,
  SearchFilter.filterPadsSpaces,
  CreateEcho.createNullAsText
] as const

/** A violation's name. */
export type ViolationName = (typeof records)[number]["name"]

type Unbroken = Exclude<ContractRules.RuleId, (typeof records)[number]["rule"]>
/** Every rule of `ContractRules` has a record that breaks it (a compile error names the rules that have none). */
export const everyRuleHasARecord: [Unbroken] extends [never] ? true : Unbroken = true

/** Finds a record by name. */
export const byName: ReadonlyMap<string, ViolationRecord<ViolationName>> = new Map(
  records.map((r) => [r.name, r])
)
