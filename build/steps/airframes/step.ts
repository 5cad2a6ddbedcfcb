// the airframes step's declaration (declaration.ts). an airframe's documents come from its legs
// in the window, routed with tonight's routes table (legs_routed), and from the reference data, the
// code and the options; with the last three the previous build's (what reuse means), they can
// change only if it has legs in a day that entered or left the window, or a leg whose missing end
// a changed routes-table entry fills. it keeps per airframe what its documents were made of
// (state.ts) and the routes table they were routed with, for the next night.
import { statePath, type StepDeclaration } from '../declaration.ts';

/** per airframe: hex, legs (0: a registry row never heard), legsum, reg, reg_ts, type, type_ts, operator_icao */
export const AIRFRAME_STATE = statePath('airframes.parquet');
/** per airframe and callsign prefix: hex, p, n, t (sql.ts operatorCountsSql) */
export const OPERATOR_STATE = statePath('airframe-operators.parquet');
/** the routes table this build's airframes were routed with (the airports step compares with it too) */
export const ROUTES_STATE = statePath('airframe-routes.parquet');

export const AIRFRAMES_STEP = {
  name: 'airframes',
  reads: ['legs', 'ref_airports', 'legs_routed', 'routes_table'],
  makes: [],
  saves: [AIRFRAME_STATE, OPERATOR_STATE, ROUTES_STATE],
  reuse: {
    // every airframe of the window aggregated, and its documents kept unbuilt where its legs'
    // digest and identity are the saved row's (sql.ts airframesSql against af_prev)
    documents: { logDays: false, state: [AIRFRAME_STATE, OPERATOR_STATE], holds: 'airframe state', rebuild: [] },
    // only the airframes these changes reach are made (changed.ts), most of them from their
    // previous documents (fold.ts); every other one the previous build heard is kept unbuilt
    increment: {
      logDays: true,
      state: [AIRFRAME_STATE, OPERATOR_STATE, ROUTES_STATE],
      holds: 'airframe state and routes table',
      rebuild: ['added-days', 'dropped-days', 'changed-routes'],
      routes: ROUTES_STATE,
    },
  },
} as const satisfies StepDeclaration;
