import type { Repos } from '../db/repos/index.js';
import type { Account, ImageType, Profile } from '../db/schema.js';
import { nowIso } from './clock.js';
import { InvalidRequest, NotFound } from './errors.js';
import { type StoredStyle, styleRecord } from './records/profiles.js';

/** A named style every account has, for RAW and for JPEG photos. */
export interface BuiltInStyle {
  /** Stable identifier, e.g. "natural". */
  key: string;
  name: string;
  style: StoredStyle;
}

export const PROFILE_TYPES = {
  builtIn: 'BUILT_IN',
  fromXmp: 'XMP_AVERAGE',
  fromExamples: 'PERSONAL_AI',
} as const;

export interface ProfileRecord {
  profile_key: number;
  profile_name: string;
  profile_type: string;
  image_type: ImageType;
}

export function profileRecord(profile: Profile): ProfileRecord {
  return { profile_key: profile.id, profile_name: profile.name, profile_type: profile.profile_type, image_type: profile.image_type };
}

/** The kinds of photo a profile is made for. */
export const IMAGE_TYPES: readonly ImageType[] = ['RAW', 'JPG'];

/** Editing profiles: named styles that bias the automatic edit (reference §4.1). */
export class ProfilesService {
  constructor(private readonly repos: Repos) {}

  /** Creates or refreshes the built-in profiles, one per style and image type. */
  async ensureBuiltIns(styles: BuiltInStyle[]): Promise<void> {
    const now = nowIso();
    await this.repos.profiles.upsertBuiltIns(
      styles.flatMap((s) =>
        IMAGE_TYPES.map((imageType) => ({
          account_id: null,
          builtin_key: `${s.key}:${imageType}`,
          name: s.name,
          profile_type: PROFILE_TYPES.builtIn,
          image_type: imageType,
          style: styleRecord.encode(s.style),
          created_at: now,
        })),
      ),
    );
  }

  list(account: Account): Promise<Profile[]> {
    return this.repos.profiles.visibleTo(account.id);
  }

  /** The profile an edit names; another account's profile is as unknown as a missing one. */
  async forEdit(account: Account, key: number): Promise<Profile> {
    const profile = await this.repos.profiles.byId(key);
    if (!profile || (profile.account_id !== null && profile.account_id !== account.id)) throw new InvalidRequest(`Profile key ${key} not found.`);
    return profile;
  }

  async create(accountName: string, profile: { name: string; type: string; imageType: ImageType; style: StoredStyle }): Promise<Profile> {
    const account = await this.repos.accounts.byName(accountName);
    if (!account) throw new NotFound(`No account named "${accountName}".`);
    if (!IMAGE_TYPES.includes(profile.imageType)) throw new InvalidRequest(`The image type must be RAW or JPG, got ${profile.imageType}.`);
    return this.repos.profiles.insert({
      account_id: account.id,
      builtin_key: null,
      name: profile.name,
      profile_type: profile.type,
      image_type: profile.imageType,
      style: styleRecord.encode(profile.style),
      created_at: nowIso(),
    });
  }
}
