/**
 * The words the instruction engine knows, as data: what each word or phrase is (a target,
 * a quality with its direction, a direction, an intensity ...) and what one default step
 * of each target changes. The grammar that combines them is in clauses.ts; the defaults
 * and the word lists are documented in docs/copilot-instructions.md.
 */
import { SMOOTH_SKIN_DEFAULT, WINDOW_PULL_DEFAULT } from '../../../imaging/estimate.js';
import type { AdjustKey, SkyTemplateName } from './delta.js';

export type Sign = 1 | -1;

/**
 * What a quality belongs to, so that a noun can take it as its own direction: "darken the
 * shadows" (tone), "bluer sky" (colour), "smoother skin" (texture).
 */
export type Family = 'tone' | 'blue' | 'warm' | 'texture' | 'drama';

/** A target moved by sliders: one default step ("brighter", "more contrast") changes these settings by these amounts. */
export interface SliderTarget {
  /** The first entry is what an explicit amount ("by 30", "+1 stop") sets; the others follow in proportion. */
  step: Partial<Record<AdjustKey, number>>;
  /** How an explicit amount without a unit is read. */
  unit: 'ev' | 'kelvin' | 'slider';
  /** The direction of "recover / fix / protect X"; absent where that means nothing. */
  remedy?: Sign;
  /** Qualities this noun takes as its direction, with the sign each family carries ("brighter shadows"). */
  absorbs?: Partial<Record<Family, Sign>>;
  /** Sets the first setting to this value whatever the intensity (black and white). */
  setTo?: number;
}

export type StructuralTarget = 'crop' | 'rotate' | 'straighten' | 'verticals' | 'sky';

const SLIDERS = {
  exposure: { step: { exposure: 0.4 }, unit: 'ev', absorbs: { tone: 1 } },
  contrast: { step: { contrast: 20 }, unit: 'slider' },
  highlights: { step: { highlights: 30 }, unit: 'slider', remedy: -1, absorbs: { tone: 1 } },
  shadows: { step: { shadows: 30 }, unit: 'slider', remedy: 1, absorbs: { tone: 1 } },
  whites: { step: { whites: 25 }, unit: 'slider', remedy: -1, absorbs: { tone: 1 } },
  blacks: { step: { blacks: 20 }, unit: 'slider', remedy: 1, absorbs: { tone: 1 } },
  temperature: { step: { temperature: 600 }, unit: 'kelvin' },
  tint: { step: { tint: 10 }, unit: 'slider' },
  saturation: { step: { saturation: 15 }, unit: 'slider' },
  vibrance: { step: { vibrance: 20 }, unit: 'slider' },
  clarity: { step: { clarity: 20 }, unit: 'slider' },
  sharpening: { step: { sharpening: 30 }, unit: 'slider' },
  /** "Less noise" is more noise reduction. */
  noise: { step: { noiseReduction: -30 }, unit: 'slider', remedy: -1 },
  noiseReduction: { step: { noiseReduction: 30 }, unit: 'slider' },
  // The amounts the batch options use, so the tool and the option agree.
  windowPull: { step: { windowPull: WINDOW_PULL_DEFAULT }, unit: 'slider', remedy: 1, absorbs: { tone: -1 } },
  smoothSkin: { step: { smoothSkin: SMOOTH_SKIN_DEFAULT }, unit: 'slider', remedy: 1, absorbs: { texture: 1 } },
  // Looks: several sliders at once, in photographers' proportions.
  punch: { step: { contrast: 20, vibrance: 15 }, unit: 'slider' },
  pop: { step: { contrast: 20, vibrance: 15, clarity: 15 }, unit: 'slider' },
  moody: { step: { exposure: -0.3, contrast: 15, saturation: -15 }, unit: 'ev' },
  airy: { step: { exposure: 0.3, contrast: -15, highlights: -15, shadows: 20 }, unit: 'ev' },
  drama: { step: { contrast: 20, clarity: 20 }, unit: 'slider' },
  faded: { step: { blacks: 25, contrast: -10 }, unit: 'slider' },
  vivid: { step: { vibrance: 20, saturation: 10 }, unit: 'slider' },
  crisp: { step: { sharpening: 25, clarity: 10 }, unit: 'slider' },
  soft: { step: { clarity: -20, sharpening: -20 }, unit: 'slider' },
  dreamy: { step: { clarity: -25, contrast: -10, exposure: 0.15 }, unit: 'slider' },
  haze: { step: { contrast: -15, clarity: -15, blacks: 10 }, unit: 'slider' },
  dull: { step: { contrast: -15, saturation: -15 }, unit: 'slider' },
  mono: { step: { saturation: -100 }, unit: 'slider', setTo: -100 },
} satisfies Record<string, SliderTarget>;

export type SliderId = keyof typeof SLIDERS;
export const SLIDER_TARGETS: Readonly<Record<SliderId, SliderTarget>> = SLIDERS;
export type TargetId = SliderId | StructuralTarget;

export type Unit = 'ev' | 'percent' | 'kelvin' | 'degrees' | 'slider';

/**
 * One word or phrase. A phrase may stand for several entries ("uncrop" is the noun crop
 * and a reset).
 */
export type Entry =
  /**
   * Something to change: "contrast", "shadows", "sky". `object`: a word that beside a quality
   * is only its object, even after "more" ("more vivid colours").
   */
  | { kind: 'noun'; target: TargetId; object?: boolean }
  /**
   * An adjective or verb with its own target and direction: "brighter", "darken", "warmer".
   * `complaint`: the word names a fault ("noisy", "crooked"), so on its own it asks for the opposite.
   * `base`: a plain adjective ("dark"), a fault after "is / looks" ("it looks dark").
   */
  | { kind: 'quality'; target: TargetId; sign: Sign; family?: Family; familySign?: Sign; complaint?: boolean; base?: boolean }
  /** more / less and their verbs; `manipulates`: also a verb of adding or removing things. */
  | { kind: 'direction'; sign: Sign; manipulates?: boolean; resets?: boolean }
  /** recover, fix, protect: the direction depends on the target. */
  | { kind: 'remedy' }
  | { kind: 'intensity'; factor: number }
  | { kind: 'negation' }
  /** too, too much: the target is past where it should be. */
  | { kind: 'excess' }
  /** "not ... enough", "too little": more of what is named. */
  | { kind: 'lack' }
  /** is, looks: "it looks dark" names a fault. */
  | { kind: 'copula' }
  /** make, give: "make it dark" asks for it. */
  | { kind: 'make' }
  | { kind: 'unit'; unit: Unit }
  | { kind: 'amount'; value: number; unit: Unit | null }
  /** "to" before a number: an absolute value. */
  | { kind: 'to' }
  /** clockwise / counter-clockwise. */
  | { kind: 'turn'; sign: Sign }
  | { kind: 'ratio'; aspect: string }
  | { kind: 'reset' }
  /** replace, change: a sky replacement; anything else replaced is not realistic. */
  | { kind: 'replace' }
  | { kind: 'template'; name: SkyTemplateName }
  /** Things that have lines (a building, walls): make "straighten" mean verticals; never edited themselves. */
  | { kind: 'lines' }
  /** Colour cast: the object of a hue ("remove the yellow cast"). */
  | { kind: 'cast' }
  /** "don't touch", "leave": understood, changes nothing. */
  | { kind: 'leave' }
  /** What no realistic edit does: style transfer, weather, people's looks, backgrounds. */
  | { kind: 'unrealistic' }
  | { kind: 'separator' }
  | { kind: 'filler' };

const lexicon = new Map<string, Entry[]>();

function define(words: string, ...entries: Entry[]): void {
  for (const w of words.split(',')) {
    const key = w.trim();
    if (lexicon.has(key)) throw new Error(`Vocabulary defines "${key}" twice`);
    lexicon.set(key, entries);
  }
}

const noun = (target: TargetId): Entry => ({ kind: 'noun', target });
const quality = (target: TargetId, sign: Sign, extra: Omit<Extract<Entry, { kind: 'quality' }>, 'kind' | 'target' | 'sign'> = {}): Entry => ({ kind: 'quality', target, sign, ...extra });
const tone = (target: TargetId, sign: Sign, base = false): Entry => quality(target, sign, { family: 'tone', familySign: sign, base });
const hue = (target: TargetId, sign: Sign, family: Family | undefined, base = false): Entry => quality(target, sign, { ...(family ? { family, familySign: 1 as Sign } : {}), base });
const direction = (sign: Sign, flags: { manipulates?: boolean; resets?: boolean } = {}): Entry => ({ kind: 'direction', sign, ...flags });
const intensity = (factor: number): Entry => ({ kind: 'intensity', factor });
const amount = (value: number, unit: Unit | null = null): Entry => ({ kind: 'amount', value, unit });

// Nouns.
define('exposure,brightness,light,lighting,exposures', noun('exposure'));
define('contrast,contrasts', noun('contrast'));
define('highlights,highlight,bright areas,bright parts,bright spots,brights,highlight detail', noun('highlights'));
define('shadows,shadow,dark areas,dark parts,darks,shadow detail,shadow areas', noun('shadows'));
define('whites,white point,white levels,white level', noun('whites'));
define('blacks,black point,black levels,black level', noun('blacks'));
define('temperature,temp,warmth,white balance,colour temperature,color temperature,wb', noun('temperature'));
define('tint', noun('tint'));
define('saturation,colour saturation,color saturation', noun('saturation'));
define('colours,colors,colour,color', { kind: 'noun', target: 'saturation', object: true });
define('vibrance', noun('vibrance'));
define('clarity,texture,structure,local contrast,midtone contrast,mid tone contrast', noun('clarity'));
define('sharpness,sharpening,detail,details,definition', noun('sharpening'));
define('noise,grain,luminance noise,digital noise', noun('noise'));
define('noise reduction,denoising,noise removal', noun('noiseReduction'));
define('windows,window,window pull,window view,view outside,view through the windows,window light', noun('windowPull'));
define('skin,skin smoothing,complexion', noun('smoothSkin'));
define('haze,fog,mist,dehazing', noun('haze'));
define('crop,cropping,framing,aspect ratio,aspect,ratio,composition', noun('crop'));
define('rotate,rotation,orientation,turn', noun('rotate'));
define('straighten,straightening,horizon,horizon line,level,tilt,angle', noun('straighten'));
define('verticals,vertical,vertical lines,perspective,keystone,keystoning,converging lines,converging verticals,upright,perspective correction', noun('verticals'));
define('sky,skies,sky replacement,replaced sky', noun('sky'));
define('building,buildings,walls,wall,lines,columns,door frames,architecture', { kind: 'lines' });
define('cast,colour cast,color cast', { kind: 'cast' });

// Qualities: tone.
define('bright', tone('exposure', 1, true));
define('brighter,brighten,brightened,lighter,lighten,lightened,luminous,brighten up,lighten up', tone('exposure', 1));
define('dark', tone('exposure', -1, true));
define('darker,darken,darkened,dim,dimmer,dimmed,darken down', tone('exposure', -1));
define('deep,deeper,deepen,richer blacks', tone('blacks', -1));
define('overexposed,over exposed,too exposed', quality('exposure', 1, { complaint: true }));
define('underexposed,under exposed', quality('exposure', -1, { complaint: true }));
define('blown,blown out,clipped,burnt out,burned out', quality('highlights', 1, { family: 'tone', familySign: 1, complaint: true }));
define('blowing,blow out,clipping', tone('highlights', 1));

// Qualities: colour.
define('warm,golden,yellow,orange', hue('temperature', 1, 'warm', true));
define('warmer,warm up,warmed,yellower,more yellow,amber,oranger', hue('temperature', 1, 'warm'));
define('cool,cold,blue', hue('temperature', -1, 'blue', true));
define('cooler,cool down,cool it down,colder,bluer,bluish,icy,cooled', hue('temperature', -1, 'blue'));
define('magenta,pink,purple', hue('tint', 1, undefined, true));
define('more magenta,pinker,purpler,magentas', hue('tint', 1, undefined));
define('green', hue('tint', -1, undefined, true));
define('greener,greenish', hue('tint', -1, undefined));
define('saturated,colourful,colorful', quality('saturation', 1, { base: true }));
define('saturate,more colourful,more colorful', quality('saturation', 1));
define('desaturate,desaturated,desaturate it,unsaturated', quality('saturation', -1));
define('vibrant', quality('vibrance', 1, { base: true }));
define('vivid,rich,richer,vivider,intense', quality('vivid', 1, { base: true }));
define('muted,subdued,pastel,subtle colours,subtle colors', quality('vivid', -1, { base: true }));
define('black and white,black & white,b&w,bw,monochrome,greyscale,grayscale,mono,black white', quality('mono', 1));

// Qualities: looks.
define('punchy,punchier,punch,contrasty,more punch', quality('punch', 1));
define('pop,poppy,pops,popping', quality('pop', 1));
define('moody,moodier', quality('moody', 1, { family: 'drama', familySign: 1 }));
define('airy,airier,bright and airy,light and airy', quality('airy', 1));
define('dramatic,more dramatic,stormy', quality('drama', 1, { family: 'drama', familySign: 1 }));
define('flat', quality('contrast', -1, { complaint: true }));
define('flatter,less contrasty', quality('contrast', -1));
define('harsh', quality('contrast', 1, { complaint: true }));
define('faded,matte,fade', quality('faded', 1));
define('crisp,crisper,crispy,crispier', quality('crisp', 1, { family: 'texture', familySign: -1 }));
define('soft,softer,soften,softened,smooth,smoother,smoothen,smooth out', quality('soft', 1, { family: 'texture', familySign: 1 }));
define('sharp,sharper,sharpen,sharpened,in focus', quality('sharpening', 1, { family: 'texture', familySign: -1 }));
define('blurry,blurred,out of focus,fuzzy,unsharp', quality('sharpening', -1, { complaint: true }));
define('dreamy,dreamier,ethereal', quality('dreamy', 1));
define('hazy,foggy,misty,muddy,murky', quality('haze', 1, { complaint: true }));
define('dehaze,clearer,less hazy', quality('haze', -1));
define('whiter', tone('whites', 1));
define('golden hour,golden light', hue('temperature', 1, 'warm'));
define('dull,lifeless,washed out,drab', quality('dull', 1, { complaint: true }));
define('duller', quality('dull', 1));
define('noisy,grainy,speckled', quality('noise', 1, { complaint: true }));
define('denoise,cleaner,clean up the noise', quality('noise', -1));

// Qualities: geometry and sky.
define('crooked,tilted,skewed,askew,wonky,uneven,slanted,not level,off level', quality('straighten', 1, { complaint: true }));
define('leaning,converging,keystoned,falling over', quality('verticals', 1, { complaint: true }));
define('tighter,closer,zoom in,crop in,punch in,tighten', quality('crop', 1));
define('looser,wider,zoom out,crop out,loosen', quality('crop', -1));
define('clear,cloudless', quality('haze', -1, { family: 'blue', familySign: 1 }));
define('clear blue,clear sky,blue sky,clear blue sky', { kind: 'template', name: 'clear blue' });
define('clouds,cloud,cloudy,light clouds,some clouds,puffy clouds', { kind: 'template', name: 'light clouds' });
define('dramatic clouds,storm clouds,stormy sky,dramatic sky,moody sky', { kind: 'template', name: 'dramatic clouds' });
define('sunset,sunset sky,golden hour sky,dusk,sundown,evening sky', { kind: 'template', name: 'sunset' });

// Directions.
define(
  'more,increase,increased,raise,boost,enhance,higher,stronger,extra,up,bring up,turn up,crank up,pump up,dial up,push,open up,lift,lifted,bring out,amplify,intensify,heighten,strengthen,emphasise,emphasize,needs more,add some,give it more',
  direction(1),
);
define('add,put in,insert', direction(1, { manipulates: true }));
define(
  'less,decrease,decreased,reduce,reduced,lower,cut,drop,weaker,fewer,down,tone down,toned down,bring down,turn down,dial down,dial back,pull back,back off,minimise,minimize,take down,crush,tame,suppress,pull down,knock down,rein in,weaken,calm down',
  direction(-1),
);
define('remove,eliminate,get rid of,take out,erase,delete,clean out', direction(-1, { manipulates: true, resets: true }));
define('recover,fix,correct,protect,preserve,keep,rescue,save,restore,bring back,repair,control,hold', { kind: 'remedy' });
define('reset,undo,revert,original,uncropped,no longer', { kind: 'reset' });
define('uncrop,full frame,no crop,without crop', noun('crop'), { kind: 'reset' });
define('replace,change,swap,switch,new', { kind: 'replace' });
define('move,clone,paint out,photoshop', direction(-1, { manipulates: true }));

// Intensities: one step is the default; these scale it.
define('a hair,a tiny bit,tiny bit,barely,very slightly,ever so slightly,a smidge,a wee bit,just a touch,the slightest', intensity(0.25));
define('slightly,a touch,a tad,tad,a little,little,subtly,gently,marginally,a hint,hint,lightly,mildly,softly', intensity(0.4));
define('a bit,bit,a little bit,little bit,just a bit,a little more', intensity(0.5));
define('somewhat,kind of,kinda,sort of,sorta,moderately,a bit more', intensity(0.6));
define('noticeably,quite,rather,clearly,visibly,quite a bit,pretty', intensity(1.5));
define('very,really,much,a lot,lots,alot,way,far,significantly,considerably,substantially,heavily,strongly,seriously,super,a great deal,a good deal,loads,plenty,lot,greatly', intensity(2.5));
define('extremely,massively,hugely,drastically,dramatically,a ton,tons,enormously,insanely,radically,way way,very very', intensity(3.5));

// Negation, excess, lack, copulas.
define("not,don't,dont,do not,never,no,nothing,doesn't,shouldn't", { kind: 'negation' });
define('without', { kind: 'separator' }, { kind: 'negation' });
define("don't touch,do not touch,dont touch,leave,leave alone,don't change,do not change,dont change,keep the same,as is,as it is,unchanged", { kind: 'leave' });
define("isn't,aren't,is not,are not", { kind: 'copula' }, { kind: 'negation' });
define('too,overly,excessively,too much,too many,over', { kind: 'excess' });
define('enough,not enough,too little,lacks,lacking,lacks some,missing,not enough of', { kind: 'lack' });
define("is,are,looks,look,seems,seem,feels,feel,appears,appear,it's,its,was,were,got,gotten,came out,looking", { kind: 'copula' });
define('make,give,render,keep it', { kind: 'make' });

// Amounts, units, turns, ratios.
define('stop,stops,ev,f stop,f stops,fstop,fstops', { kind: 'unit', unit: 'ev' });
define('percent,per cent,pct', { kind: 'unit', unit: 'percent' });
define('k,kelvin,kelvins', { kind: 'unit', unit: 'kelvin' });
define('degrees,degree,deg,degs', { kind: 'unit', unit: 'degrees' });
define('points,point,units,unit,steps,step,notches,notch', { kind: 'unit', unit: 'slider' });
define('a stop,one stop,a full stop,full stop', amount(1, 'ev'));
define('half a stop,a half stop,half stop', amount(0.5, 'ev'));
define('a third of a stop,third of a stop,a third stop,one third of a stop', amount(1 / 3, 'ev'));
define('two stops', amount(2, 'ev'));
define('one', amount(1));
define('two', amount(2));
define('three', amount(3));
define('four', amount(4));
define('five', amount(5));
define('ten', amount(10));
define('twenty', amount(20));
define('thirty', amount(30));
define('fifty', amount(50));
define('half', amount(0.5));
define('to', { kind: 'to' });
define('clockwise,cw,right,to the right', { kind: 'turn', sign: 1 });
define('counterclockwise,counter clockwise,anticlockwise,anti clockwise,ccw,left,to the left', { kind: 'turn', sign: -1 });
define('upside down,flip it upside down', noun('rotate'), amount(180, 'degrees'));
define('square,squared', { kind: 'ratio', aspect: '1:1' });
define('instagram,instagram portrait', { kind: 'ratio', aspect: '4:5' });
define('widescreen,wide screen,cinematic,youtube', { kind: 'ratio', aspect: '16:9' });
define('panorama,panoramic,pano', { kind: 'ratio', aspect: '2:1' });

// Requests no realistic edit can do.
define(
  [
    'painting,painted,paint,oil painting,watercolor,watercolour,cartoon,cartoonish,anime,manga,sketch,drawing,illustration,comic,pencil,pixar,disney,ghibli,van gogh,monet,picasso,impressionist,pop art,pixel art,lego,cyberpunk,steampunk,surreal,fantasy,style of,in the style,artistic,artwork,render it as,turn into,turn it into,transform,transform it,generate,imagine,colorize,colourize',
    'background,backdrop,bokeh,depth of field,blur the background,foreground',
    'smile,smiling,younger,older,thinner,slimmer,fatter,skinnier,taller,shorter,muscular,beard,makeup,make up,tattoo,tattoos,hairstyle,hair,eyes,eye colour,eye color,teeth,face,faces,face swap,swap faces,swap face,expression,pose,body,nose,lips,wrinkles,acne,blemishes,blemish,freckles,glasses',
    'snow,snowy,snowing,rain,rainy,raining,winter,wintery,wintry,autumn,summer,springtime,night,nighttime,night time,daytime,day time,storm,lightning,rainbow,moon,stars,starry,sunny,sunnier,sunshine,sun,aurora,fireworks,weather,season',
    'person,people,man,woman,men,women,boy,girl,child,children,kid,kids,baby,dog,dogs,cat,cats,animal,animals,bird,birds,car,cars,tree,trees,object,objects,logo,watermark,text,sign,tourists,crowd,wires,power lines,trash,furniture,dragon,unicorn,ufo,alien',
  ].join(','),
  { kind: 'unrealistic' },
);

// Clause boundaries and words that carry nothing.
define('and,but,while,whilst,though,although,also,plus,then,yet,however,as well as,and then,but also,and also,and make,same time,at the same time,instead', { kind: 'separator' });
define(
  [
    'it,the,a,an,this,that,these,those,photo,photos,image,images,picture,pictures,pic,pics,shot,shots,frame,please,pls,plz,can,could,would,will,you,i,me,my,mine,we,us,our,your,he,she,they,him,her,his,them,their,want,wanted,like,need,needs,should,must,of,in,on,at,for,with,by,from,into,onto,overall,whole,entire,just,so,some,maybe,be,than,now,again,there,here,still,even,thanks,thank,ok,okay,hi,hey,set,get,go,do,does,did,have,has,had,bring,let,lets,all,everything,scene,area,areas,part,parts,region,regions,tones,tone,vibe,bits,ones,version,edit,result,currently,bit of,little of,lot of,abit,should be,would be,way it is,as,if,what,which,who,how,very much,thing,things,overall image,whole image,entire image,overall photo,whole photo,i think,a lot of,where,when,try,adjust,adjustment,apply,level of,amount,amount of,tad bit,side,sides,area of',
  ].join(','),
  { kind: 'filler' },
);

/** Entries of a word or phrase (lower case, single spaces), or undefined. */
export function lookup(phrase: string): Entry[] | undefined {
  return lexicon.get(phrase);
}

/** Longest phrase in words, for the tokeniser's longest-match. */
export const LONGEST_PHRASE = Math.max(...[...lexicon.keys()].map((k) => k.split(' ').length));

/** What the engine understands, for the "not understood" answer. */
export const UNDERSTOOD = [
  'brightness and exposure',
  'contrast',
  'highlights and shadows',
  'whites and blacks',
  'warmth and tint',
  'saturation and vibrance',
  'clarity',
  'sharpness',
  'noise reduction',
  'crop and aspect ratio',
  'straighten and rotate',
  'vertical lines',
  'sky (bluer, or a new sky: clear blue, light clouds, dramatic clouds, sunset)',
  'window pull',
] as const;
