/**
 * Scenarios read from YAML: every key once, typed cells, honest errors naming file, line and key.
 *
 * <p>Reading: {@code YamlNode}, {@code Key} + {@code Keys} (every key once: type, range, default,
 * meaning; defaults of settings taken from {@code StreamSpec} and {@code ClientOptions}; a cell's
 * settings in {@code SettingKeys}, a target's in {@code TargetKeys}, the guards' in {@code
 * GuardKeys}, bisection's and probes' in {@code ProbeKeys}), {@code Setting} (each sweepable
 * setting sets its typed value on a {@code Cell}), {@code Cell} (a {@code StreamSpec}, {@code
 * ClientOptions} and the model), {@code ScenarioLoader} and one reader per part, {@code
 * Expectations} (the {@code expect:} block: what each target's flush-trigger answer must be),
 * {@code ScenarioReference}, {@code MapScenario}, {@code ProbeScenario}, {@code ProbeKind}
 */
package flushlab.scenario;
