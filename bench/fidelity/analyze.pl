#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# The fidelity study's arithmetic (docs/fidelity.md), in three steps that
# bench/fidelity.sh runs:
#
#   analyze.pl collect --configs FILE (--native-runs FILE | --native-from DIR)
#                      [--cpu NAME] [--compiler TEXT] [--min-time S] [--date DATE]
#                      [--one-half NAME]
#       joins bm-run's reports (FILE: LABEL<TAB>REPORT<TAB>BM-RUN OPTIONS per line) with
#       the native times (FILE: REPEAT<TAB>NATIVE REPORT per line, libbm --json; or
#       DIR's native-times.tsv and native-ratios.tsv recorded earlier) into the raw
#       data, bm-fidelity/1 JSON on standard output: what a model-fitting step reads
#   analyze.pl report RAW.json
#       the Markdown tables of docs/fidelity.md on standard output
#   analyze.pl record RAW.json DIR
#       writes the native medians and pair ratios as DIR/native-times.tsv and
#       DIR/native-ratios.tsv
#   analyze.pl merge REPORT...
#       one report (on standard output) holding the benchmarks of all the
#       reports, which must be of one model: bench/fidelity_external.sh's
#       runs of one program each, as collect reads one report per
#       configuration
# --one-half puts every benchmark in that half instead of splitting them:
# a corpus that no model was fitted on (bench/fidelity_external.sh) is
# all validation.
#
# Ratios are time(before) / time(after): how many times faster the change
# made the work.  Halves: pairs and other benchmarks apart, each sorted by
# group (a pair's kind, a benchmark's suite) and then FNV-1a of the unit's
# name, go to fit and validation in turn, so every kind of change with two
# pairs or more has pairs in both halves and a pair is never split.
use strict;
use warnings;
use JSON::PP;

my $SAME = 0.10;    # a change under 10% either way is "no change" (bm-check's default threshold)
my %BAR = (error => 2, median_error => 1.5, spearman => 0.95);

sub usage { die "usage: analyze.pl collect|report|record|merge ... (see its header)\n" }
sub fail { die "analyze.pl: $_[0]\n" }

sub slurp
{
	my ($path) = @_;
	open my $f, '<', $path or fail("cannot open '$path': $!");
	local $/;
	return scalar <$f>;
}

sub read_json { my $t = slurp($_[0]); my $j = eval { decode_json($t) }; fail("'$_[0]' is not JSON: $@") unless $j; $j }

sub median
{
	my @v = sort { $a <=> $b } @_;
	return undef unless @v;
	return @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
}

# The p-quantile of the values, interpolating between the two nearest.
sub quantile
{
	my ($p, @v) = @_;
	@v = sort { $a <=> $b } @v;
	my $at = $p * $#v;
	my $i = int $at;
	return $i < $#v ? $v[$i] + ($at - $i) * ($v[$i + 1] - $v[$i]) : $v[$i];
}

# Median, quartiles and range of a list: what one native figure is made of.
sub summary
{
	my (@v) = @_;
	return {median => median(@v), q1 => quantile(0.25, @v), q3 => quantile(0.75, @v),
		min => quantile(0, @v), max => quantile(1, @v)};
}

sub fnv1a
{
	my $h = 0x811c9dc5;
	for my $c (unpack 'C*', $_[0]) {
		$h ^= $c;
		$h = ($h * 0x01000193) % 4294967296;
	}
	return $h;
}

# pair::KIND.NAME/SIDE -> (KIND.NAME, KIND, SIDE), or () for another id.
sub pair_of
{
	my ($id) = @_;
	return $id =~ m{^pair::(([^./]+)\.[^/]+)/(before|after)$} ? ($1, $2, $3) : ();
}

sub assign_halves
{
	my ($benchmarks) = @_;
	my (%group, %is_pair);
	for my $b (@$benchmarks) {
		my ($pair, $kind) = pair_of($b->{id});
		my $unit = $pair // $b->{id};
		$group{$unit} = $pair ? $kind : (split /::/, $b->{id})[0];
		$is_pair{$unit} = $pair ? 1 : 0;
	}
	my %half;
	for my $pairs (1, 0) {
		my @units = sort { $group{$a} cmp $group{$b} || fnv1a($a) <=> fnv1a($b) || $a cmp $b }
			grep { $is_pair{$_} == $pairs } keys %group;
		$half{$units[$_]} = $_ % 2 ? 'validation' : 'fit' for 0 .. $#units;
	}
	for my $b (@$benchmarks) {
		my ($pair) = pair_of($b->{id});
		$b->{half} = $half{$pair // $b->{id}};
	}
}

sub read_tsv
{
	my ($path) = @_;
	my (@rows, @head);
	for (split /\n/, slurp($path)) {
		next if /^#/ || !/\S/;
		my @f = split /\t/;
		if (!@head) { @head = @f; next }
		my %r;
		@r{@head} = @f;
		push @rows, \%r;
	}
	return \@rows;
}

sub collect
{
	my %o;
	while (@_) {
		my $k = shift;
		usage() unless $k =~ /^--(configs|native-runs|native-from|cpu|compiler|min-time|date|one-half)$/ && @_;
		$o{$1} = shift;
	}
	usage() unless $o{configs} && ($o{'native-runs'} xor $o{'native-from'});
	my (@configs, %bm, @order, %seen);
	for (split /\n/, slurp($o{configs})) {
		my ($label, $path, $args) = split /\t/, $_, 3;
		$args //= '';
		fail("two configurations are labelled '$label': give each its own label") if grep { $_->{label} eq $label } @configs;
		my $r = read_json($path);
		push @configs, {label => $label, args => $args, model => $r->{model}};
		for my $b (@{$r->{benchmarks}}) {
			push @order, $b->{id} unless $seen{$b->{id}}++;
			next unless $b->{status} eq 'ok';
			$bm{$b->{id}}{$label} = {events => $b->{events}, cycles => $b->{cycles}, time_s => $b->{time_s}};
		}
	}
	my (%runs, %spread_within, %native, %pair_ratio, $native_info);
	if ($o{'native-runs'}) {
		my $repeats = 0;
		for (split /\n/, slurp($o{'native-runs'})) {
			my ($repeat, $path) = split /\t/;
			$repeats = $repeat if $repeat > $repeats;
			for my $b (@{read_json($path)->{benchmarks}}) {
				next unless $b->{status} eq 'ok';
				$runs{$b->{id}}[$repeat - 1] = $b->{value};
				my ($s) = grep { $_->{metric} eq 'walltime_spread' } @{$b->{extra_metrics} || []};
				push @{$spread_within{$b->{id}}}, $s->{value} / $b->{value} if $s && $b->{value} > 0;
			}
		}
		$native_info = {source => 'measured', repeats => $repeats};
		for my $id (keys %runs) {
			my $sum = summary(grep { defined } @{$runs{$id}});
			$native{$id} = {(map { ("${_}_s" => $sum->{$_}) } keys %$sum), runs_s => $runs{$id},
				spread_within => median(@{$spread_within{$id} || []})};
		}
		# A pair's ratio is taken repeat by repeat (both sides ran in the
		# same process, moments apart), then the median.
		for my $id (keys %runs) {
			my ($pair, undef, $side) = pair_of($id);
			next unless $pair && $side eq 'before';
			my $after = $runs{"pair::$pair/after"} or next;
			my @r = map { $runs{$id}[$_] / $after->[$_] }
				grep { defined $runs{$id}[$_] && defined $after->[$_] && $after->[$_] > 0 } 0 .. $#{$runs{$id}};
			next unless @r;
			my $sum = summary(@r);
			$sum->{ratio} = delete $sum->{median};
			$pair_ratio{$pair} = {%$sum, runs => \@r};
		}
	} else {
		my $dir = $o{'native-from'};
		for my $r (@{read_tsv("$dir/native-times.tsv")}) {
			$native{$r->{id}} = {map { ($_ => $r->{$_} + 0) } qw(median_s q1_s q3_s min_s max_s)};
		}
		for my $r (@{read_tsv("$dir/native-ratios.tsv")}) {
			$pair_ratio{$r->{pair}} = {map { ($_ => $r->{$_} + 0) } qw(ratio q1 q3 min max)};
		}
		$native_info = {source => "recorded in $dir"};
		# its first line says where and how they were measured
		$native_info->{note} = $1 if slurp("$dir/native-times.tsv") =~ /^# (.*)/;
	}
	if ($o{'native-runs'}) {
		$native_info->{$_->[0]} = $o{$_->[1]} for grep { $o{$_->[1]} }
			[cpu => 'cpu'], [compiler => 'compiler'], [min_time => 'min-time'], [date => 'date'];
	}
	my @benchmarks;
	for my $id (@order) {
		my ($pair, $kind, $side) = pair_of($id);
		push @benchmarks, {id => $id, ($pair ? (pair => $pair, kind => $kind, side => $side) : ()),
			native => $native{$id}, bm => $bm{$id} || {}};
	}
	if ($o{'one-half'}) {
		$_->{half} = $o{'one-half'} for @benchmarks;
	} else {
		assign_halves(\@benchmarks);
	}
	my @pairs;
	for my $b (@benchmarks) {
		next unless $b->{pair} && $b->{side} eq 'before';
		push @pairs, {pair => $b->{pair}, kind => $b->{kind}, half => $b->{half},
			native => $pair_ratio{$b->{pair}}};
	}
	my $raw = {schema => 'bm-fidelity/1', same_band => $SAME, native => $native_info,
		configs => \@configs, benchmarks => \@benchmarks, pairs => \@pairs};
	print JSON::PP->new->canonical->pretty->encode($raw);
}

# ---- statistics ----

sub ranks
{
	my @v = @_;
	my @order = sort { $v[$a] <=> $v[$b] } 0 .. $#v;
	my @r;
	for (my $i = 0; $i < @order;) {
		my $k = $i;
		$k++ while $k + 1 < @order && $v[$order[$k + 1]] == $v[$order[$i]];
		$r[$order[$_]] = ($i + $k) / 2 + 1 for $i .. $k;
		$i = $k + 1;
	}
	return @r;
}

sub pearson
{
	my ($x, $y) = @_;
	my $n = @$x;
	my ($mx, $my) = (0, 0);
	$mx += $_ / $n for @$x;
	$my += $_ / $n for @$y;
	my ($sxy, $sxx, $syy) = (0, 0, 0);
	for my $i (0 .. $n - 1) {
		my ($dx, $dy) = ($x->[$i] - $mx, $y->[$i] - $my);
		$sxy += $dx * $dy;
		$sxx += $dx * $dx;
		$syy += $dy * $dy;
	}
	return $sxx > 0 && $syy > 0 ? $sxy / sqrt($sxx * $syy) : undef;
}

sub spearman { my ($x, $y) = @_; @$x > 2 ? pearson([ranks(@$x)], [ranks(@$y)]) : undef }

sub direction { my ($r) = @_; $r > 1 + $SAME ? 1 : $r < 1 / (1 + $SAME) ? -1 : 0 }

sub ratio_error { my ($r, $n) = @_; $r / $n > $n / $r ? $r / $n : $n / $r }

# The predictors: Ir (of the first configuration), then each
# configuration's estimated time.  Each gives a value per benchmark.
sub predictors
{
	my ($raw) = @_;
	my $first = $raw->{configs}[0]{label};
	my @p = ({label => 'Ir', value => sub { my $e = $_[0]{bm}{$first}; $e ? $e->{events}{Ir} : undef }});
	for my $c (@{$raw->{configs}}) {
		my $l = $c->{label};
		push @p, {label => "$l", value => sub { my $e = $_[0]{bm}{$l}; $e ? $e->{time_s} : undef }};
	}
	return @p;
}

sub fmt_time
{
	my ($s) = @_;
	return '-' unless defined $s;
	return $s >= 1 ? sprintf('%.3g s', $s) : $s >= 1e-3 ? sprintf('%.3g ms', $s * 1e3)
		: $s >= 1e-6 ? sprintf('%.3g us', $s * 1e6) : sprintf('%.3g ns', $s * 1e9);
}

sub fmt_ratio { defined $_[0] ? sprintf('%.3g', $_[0]) : '-' }
sub fmt_count { my $n = reverse sprintf('%.0f', $_[0]); $n =~ s/(\d{3})(?=\d)/$1,/g; scalar reverse $n }

# Everything a half says about one predictor.
sub figures
{
	my ($raw, $p, $half) = @_;
	my $in = sub { $half eq 'all' || $_[0]{half} eq $half };
	my (@x, @y);
	for my $b (grep { $in->($_) } @{$raw->{benchmarks}}) {
		my $v = $p->{value}->($b);
		next unless defined $v && $b->{native};
		push @x, $v;
		push @y, $b->{native}{median_s};
	}
	my %by_id = map { $_->{id} => $_ } @{$raw->{benchmarks}};
	my (@errors, $agree, $within, $worst, $n);
	for my $pr (grep { $in->($_) && $_->{native} } @{$raw->{pairs}}) {
		my $before = $p->{value}->($by_id{"pair::$pr->{pair}/before"});
		my $after = $p->{value}->($by_id{"pair::$pr->{pair}/after"});
		next unless $before && $after;
		my ($r, $nr) = ($before / $after, $pr->{native}{ratio});
		my $e = ratio_error($r, $nr);
		$n++;
		$agree++ if direction($r) == direction($nr);
		$within++ if $e <= $BAR{error};
		push @errors, $e;
		$worst = [$e, $pr->{pair}] if !$worst || $e > $worst->[0];
	}
	return {benchmarks => scalar @x, spearman => spearman(\@x, \@y), pairs => $n // 0,
		agree => $agree // 0, within => $within // 0, median_error => median(@errors), worst => $worst};
}

# Half the interquartile range of the repeats' medians, relative to their
# median (in %): as libbm states the spread of its batches.
sub spread { my ($n) = @_; 50 * ($n->{q3_s} - $n->{q1_s}) / $n->{median_s} }

sub report
{
	my ($path) = @_;
	my $raw = read_json($path);
	my @preds = predictors($raw);
	my $nat = $raw->{native};
	my @b = @{$raw->{benchmarks}};
	my %count;
	$count{$_->{half}}++ for @b;
	my @halves = ((grep { $count{$_} } 'fit', 'validation'), 'all');
	my %pcount;
	$pcount{$_->{half}}++ for @{$raw->{pairs}};
	printf "Corpus: %d benchmarks, %d of them in %d change pairs; fit half %d benchmarks (%d pairs), "
		. "validation half %d (%d pairs).\n", scalar @b, 2 * @{$raw->{pairs}}, scalar @{$raw->{pairs}},
		$count{fit} // 0, $pcount{fit} // 0, $count{validation} // 0, $pcount{validation} // 0;
	printf "Native: %s%s%s%s.\n", $nat->{source}, $nat->{repeats} ? ", $nat->{repeats} repeat" . ($nat->{repeats} == 1 ? '' : 's') : '',
		$nat->{min_time} ? " of --min-time $nat->{min_time}" : '',
		$nat->{cpu} ? ", on $nat->{cpu}" : $nat->{note} ? " ($nat->{note})" : '';
	printf "Configurations: %s.\n\n", join '; ', map {
		"$_->{label} (`bm-run$_->{args_shown}`, model $_->{model}{id})"
	} map { {%$_, args_shown => $_->{args} ne '' ? " $_->{args}" : ''} } @{$raw->{configs}};

	print "| predictor | half | benchmarks | Spearman | pairs | in native direction | within 2x "
		. "| median ratio error | worst ratio error |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
	my %fig;
	for my $p (@preds) {
		for my $h (@halves) {
			my $f = $fig{$p->{label}}{$h} = figures($raw, $p, $h);
			printf "| %s | %s | %d | %s | %d | %s | %s | %s | %s |\n", $p->{label}, $h, $f->{benchmarks},
				defined $f->{spearman} ? sprintf('%.3f', $f->{spearman}) : '-', $f->{pairs},
				$f->{pairs} ? sprintf('%d (%.0f%%)', $f->{agree}, 100 * $f->{agree} / $f->{pairs}) : '-',
				$f->{pairs} ? sprintf('%d', $f->{within}) : '-',
				defined $f->{median_error} ? sprintf('%.2fx', $f->{median_error}) : '-',
				$f->{worst} ? sprintf('%.1fx (%s)', @{$f->{worst}}) : '-';
		}
	}

	print "\nThe bars, on the validation half:\n\n| predictor | every pair in the native direction "
		. "| every pair within 2x | median ratio error <= 1.5x | Spearman >= 0.95 |\n| --- | --- | --- | --- | --- |\n";
	for my $p (@preds) {
		my $f = $fig{$p->{label}}{validation};
		my $yes = sub { $_[0] ? "**met** ($_[1])" : "not met ($_[1])" };
		printf "| %s | %s | %s | %s | %s |\n", $p->{label},
			$yes->($f->{pairs} && $f->{agree} == $f->{pairs}, "$f->{agree}/$f->{pairs}"),
			$yes->($f->{pairs} && $f->{within} == $f->{pairs}, "$f->{within}/$f->{pairs}"),
			$yes->(defined $f->{median_error} && $f->{median_error} <= $BAR{median_error},
				defined $f->{median_error} ? sprintf('%.2fx', $f->{median_error}) : '-'),
			$yes->(defined $f->{spearman} && $f->{spearman} >= $BAR{spearman},
				defined $f->{spearman} ? sprintf('%.3f', $f->{spearman}) : '-');
	}

	my %by_id = map { $_->{id} => $_ } @b;
	print "\nPairs: the ratio is time before / time after (how many times faster the change made it), "
		. "natively the median of the repeats' ratios (their quartiles in brackets); direction: faster, "
		. "slower or the same within 10%; error: max(bm/native, native/bm).\n\n";
	print "| pair | half | native ratio (quartiles) |", (map { " $_->{label} ratio | dir | error |" } @preds),
		"\n| --- | --- | --- |", (map { " ---: | --- | ---: |" } @preds), "\n";
	for my $pr (sort { $a->{half} cmp $b->{half} || $a->{pair} cmp $b->{pair} } @{$raw->{pairs}}) {
		my $n = $pr->{native};
		printf '| %s | %s | %s |', $pr->{pair}, $pr->{half},
			$n ? sprintf('%s (%s-%s)', fmt_ratio($n->{ratio}), fmt_ratio($n->{q1}), fmt_ratio($n->{q3})) : '-';
		for my $p (@preds) {
			my $before = $p->{value}->($by_id{"pair::$pr->{pair}/before"});
			my $after = $p->{value}->($by_id{"pair::$pr->{pair}/after"});
			if (!$before || !$after || !$n) {
				print ' - | - | - |';
				next;
			}
			my $r = $before / $after;
			printf ' %s | %s | %.2fx |', fmt_ratio($r), direction($r) == direction($n->{ratio}) ? 'yes' : '**no**',
				ratio_error($r, $n->{ratio});
		}
		print "\n";
	}

	print "\nBenchmarks: native median over the repeats, and its spread (half the interquartile range of the "
		. "repeats' medians, relative); Ir and each configuration's estimated time.\n\n";
	print "| benchmark | half | native | spread | Ir |", (map { " $_->{label} |" } @{$raw->{configs}}),
		"\n| --- | --- | ---: | ---: | ---: |", (map { " ---: |" } @{$raw->{configs}}), "\n";
	for my $x (sort { $a->{half} cmp $b->{half} || $a->{id} cmp $b->{id} } @b) {
		my $n = $x->{native};
		my $ir = $preds[0]{value}->($x);
		printf '| %s | %s | %s | %s | %s |', $x->{id}, $x->{half}, fmt_time($n && $n->{median_s}),
			$n && $n->{median_s} ? sprintf('%.1f%%', spread($n)) : '-',
			defined $ir ? fmt_count($ir) : '-';
		printf ' %s |', fmt_time($x->{bm}{$_->{label}} && $x->{bm}{$_->{label}}{time_s}) for @{$raw->{configs}};
		print "\n";
	}
	my @spreads = map { spread($_->{native}) } grep { $_->{native} && $_->{native}{median_s} } @b;
	printf "\nNative spread over the benchmarks: median %.1f%%, largest %.1f%%.\n", median(@spreads),
		(sort { $a <=> $b } @spreads)[-1] if @spreads;
}

sub record
{
	my ($path, $dir) = @_;
	my $raw = read_json($path);
	my $nat = $raw->{native};
	fail("'$path' holds native times recorded earlier, not measured ones: record from a measured run")
		unless $nat->{source} eq 'measured';
	my $head = sprintf "# native times on %s, %d repeats of each program's calibrated loop (libbm, --min-time %s), "
		. "medians; written by bench/fidelity.sh --record\n", $nat->{cpu} // 'an unnamed CPU', $nat->{repeats},
		$nat->{min_time} // '?';
	$head .= "# compiler: $nat->{compiler}\n" if $nat->{compiler};
	$head .= "# measured: $nat->{date}\n" if $nat->{date};
	open my $t, '>', "$dir/native-times.tsv" or fail("cannot write '$dir/native-times.tsv': $!");
	print $t $head, "# median_s over the repeats, their quartiles q1_s q3_s and range min_s max_s\n",
		"id\thalf\tmedian_s\tq1_s\tq3_s\tmin_s\tmax_s\n";
	for my $b (sort { $a->{id} cmp $b->{id} } grep { $_->{native} } @{$raw->{benchmarks}}) {
		printf $t "%s\t%s\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\n", $b->{id}, $b->{half},
			@{$b->{native}}{qw(median_s q1_s q3_s min_s max_s)};
	}
	close $t or fail("cannot write '$dir/native-times.tsv': $!");
	open my $r, '>', "$dir/native-ratios.tsv" or fail("cannot write '$dir/native-ratios.tsv': $!");
	print $r $head, "# ratio = time(before) / time(after), per repeat, then the median; q1 q3 its quartiles "
		. "and min max its range over the repeats\n", "pair\thalf\tratio\tq1\tq3\tmin\tmax\n";
	for my $p (sort { $a->{pair} cmp $b->{pair} } grep { $_->{native} } @{$raw->{pairs}}) {
		printf $r "%s\t%s\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\n", $p->{pair}, $p->{half},
			@{$p->{native}}{qw(ratio q1 q3 min max)};
	}
	close $r or fail("cannot write '$dir/native-ratios.tsv': $!");
}

sub merge
{
	my @reports = map { read_json($_) } @_;
	my $first = $reports[0];
	for my $i (1 .. $#reports) {
		fail("'$_[$i]' is of model $reports[$i]{model}{id}, '$_[0]' of $first->{model}{id}: merge reports of one model")
			unless $reports[$i]{model}{id} eq $first->{model}{id};
		push @{$first->{benchmarks}}, @{$reports[$i]{benchmarks}};
	}
	print JSON::PP->new->canonical->encode($first);
}

my $cmd = shift // usage();
if ($cmd eq 'collect') { collect(@ARGV) }
elsif ($cmd eq 'report' && @ARGV == 1) { report(@ARGV) }
elsif ($cmd eq 'record' && @ARGV == 2) { record(@ARGV) }
elsif ($cmd eq 'merge' && @ARGV >= 1) { merge(@ARGV) }
else { usage() }
