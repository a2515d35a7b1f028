import { type Command, InvalidArgumentError } from 'commander';
import { NotFound } from '../domain/errors.js';
import { IMAGE_TYPES, PROFILE_TYPES } from '../domain/profiles.js';
import { print, withServices } from './context.js';

interface CreateOptions {
  account: string;
  name: string;
  fromXmp?: string[];
  examples?: string;
  imageType?: string;
}

type ImageType = (typeof IMAGE_TYPES)[number];
const BOTH = [...IMAGE_TYPES];

/** The style, the image types to make profiles for, and the profile type, from sidecars or from examples. */
async function profileStyle(opts: CreateOptions, type: ImageType | 'BOTH' | undefined) {
  if (opts.fromXmp) {
    const { styleFromSidecars } = await import('./profile-sources.js');
    const read = styleFromSidecars(opts.fromXmp, opts.name);
    print(`Averaged ${opts.fromXmp.length} sidecar(s).`);
    const kinds = type === 'BOTH' ? BOTH : [type ?? (read.isRaw ? 'RAW' : 'JPG')];
    return { style: read.style, kinds, profileType: PROFILE_TYPES.fromXmp };
  }
  const { styleFromExamples } = await import('./profile-sources.js');
  const fit = await styleFromExamples(opts.examples!, opts.name);
  print(`Fitted from ${fit.pairs} example pair(s).`);
  return { style: fit.style, kinds: type === undefined || type === 'BOTH' ? BOTH : [type], profileType: PROFILE_TYPES.fromExamples };
}

export function profileCommands(program: Command): void {
  const profiles = program.command('profiles').description("manage an account's editing profiles");
  profiles
    .command('create')
    .requiredOption('--account <name>', 'the account the profile belongs to')
    .requiredOption('--name <name>', 'profile name shown to clients')
    .option('--from-xmp <files...>', "the photographer's own Lightroom / Camera Raw sidecars: their average settings")
    .option('--examples <dir>', 'DIR/original/NAME.jpg and DIR/edited/NAME.jpg pairs: a style fitted to reproduce the edits')
    .option('--image-type <type>', "RAW, JPG or BOTH (default: the sidecars' kind; BOTH for examples)")
    .description('create a personal profile; prints the new profile key(s), the last line alone')
    .action((opts: CreateOptions) =>
      withServices(async (s) => {
        if (Boolean(opts.fromXmp) === Boolean(opts.examples)) throw new InvalidArgumentError('give exactly one of --from-xmp and --examples');
        const type = opts.imageType?.toUpperCase();
        if (type !== undefined && !['RAW', 'JPG', 'BOTH'].includes(type)) throw new InvalidArgumentError(`--image-type must be RAW, JPG or BOTH, got ${opts.imageType}`);
        const made = await profileStyle(opts, type as ImageType | 'BOTH' | undefined);
        const keys = [];
        for (const imageType of made.kinds) keys.push((await s.profiles.create(opts.account, { name: opts.name, type: made.profileType, imageType, style: made.style })).id);
        print(`Style: ${JSON.stringify(made.style)}\nProfile key(s) (${made.kinds.join(', ')}):\n${keys.join(' ')}`);
      }),
    );
  profiles
    .command('list')
    .requiredOption('--account <name>', 'account name')
    .description('list the profiles an account can edit with: built-in and its own')
    .action((opts: { account: string }) =>
      withServices(async (s) => {
        const account = await s.repos.accounts.byName(opts.account);
        if (!account) throw new NotFound(`No account named "${opts.account}".`);
        for (const p of await s.profiles.list(account)) print(`${p.id}\t${p.name}\t${p.image_type}\t${p.profile_type}`);
      }),
    );
}
